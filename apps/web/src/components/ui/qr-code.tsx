import { useMemo } from 'react';
import { cn } from '@/utils/cn';
import { qrMatrix } from '@/lib/qr-code';

/**
 * A QR code drawn as SVG rects (no HTML injected), always black on white whatever the theme, so a
 * phone's camera reads it; `label` is what a screen reader says instead.
 */
export function QrCode({
  text,
  label,
  className,
}: {
  text: string;
  label: string;
  className?: string;
}) {
  const { size, runs } = useMemo(() => qrMatrix(text), [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      className={cn('block rounded-lg', className)}
    >
      <rect width={size} height={size} fill="#fff" />
      {runs.map((run) => (
        <rect
          key={`${run.x}-${run.y}`}
          x={run.x}
          y={run.y}
          width={run.width}
          height={1}
          fill="#000"
        />
      ))}
    </svg>
  );
}
