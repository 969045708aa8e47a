import { useLayoutEffect, useRef, useState } from 'react';
import defaultLogo from '@/assets/default-logo.svg';
import { failedBeforeHydration } from '@/lib/prerender';
import { cn } from '@/utils/cn';

type CompanyLogoProps = { src: string | null; alt?: string; className?: string };

/** The tenant's logo; the bundled default when there is none or it fails to load (spec §2). */
export function CompanyLogo({ src, alt = '', className }: CompanyLogoProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const useDefault = !src || failedSrc === src;
  const ref = useRef<HTMLImageElement>(null);
  // Prerendered (/login): the logo may have failed before the app was there to hear it.
  useLayoutEffect(() => {
    const img = ref.current;
    if (src && img && failedBeforeHydration(img)) setFailedSrc(src);
    // Only the markup the app takes over: later changes of `src` have their own `onError`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <img
      ref={ref}
      src={useDefault ? defaultLogo : src}
      alt={alt}
      onError={() => setFailedSrc(src)}
      className={cn('object-contain', className)}
      decoding="async"
    />
  );
}
