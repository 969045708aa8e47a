import { useState } from 'react';
import defaultLogo from '@/assets/default-logo.svg';
import { cn } from '@/utils/cn';

type CompanyLogoProps = { src: string | null; alt?: string; className?: string };

/** The tenant's logo; the bundled default when there is none or it fails to load (spec §2). */
export function CompanyLogo({ src, alt = '', className }: CompanyLogoProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const useDefault = !src || failedSrc === src;
  return (
    <img
      src={useDefault ? defaultLogo : src}
      alt={alt}
      onError={() => setFailedSrc(src)}
      className={cn('object-contain', className)}
      decoding="async"
    />
  );
}
