import { Icon as Outline, type IconProps } from '@/components/ui/icons';

/**
 * Marks used only by the payment screens, in the style of components/ui/icons.tsx. Decorative
 * (`aria-hidden`): the text beside each one carries the meaning.
 */
export const CheckCircleIcon = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8 12.5l2.75 2.75L16 10" />
  </Outline>
);

export const CrossCircleIcon = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 9l6 6M15 9l-6 6" />
  </Outline>
);

/** Money going back: an arrow turning back over a circle. */
export const RefundIcon = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M15.5 14.5a3.5 3.5 0 1 0-1-5.5" />
    <path d="M14.5 6.5v2.75h2.75" />
  </Outline>
);

export const ClockIcon = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5V12l3 2" />
  </Outline>
);

export const WalletIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4 7.5A2.5 2.5 0 0 1 6.5 5H18v3" />
    <rect x="4" y="8" width="16" height="11" rx="2" />
    <path d="M16 13.5h.01" />
  </Outline>
);

export const SecureIcon = (p: IconProps) => (
  <Outline {...p}>
    <rect x="5" y="10.5" width="14" height="9.5" rx="2" />
    <path d="M8.5 10.5V8a3.5 3.5 0 0 1 7 0v2.5M12 14.5v2" />
  </Outline>
);

/** Bizum is paid from the phone: a mobile with a check on its screen. */
export const PhoneIcon = (p: IconProps) => (
  <Outline {...p}>
    <rect x="7" y="3" width="10" height="18" rx="2" />
    <path d="M10.5 18h3" />
    <path d="M9.75 10.5l1.5 1.5 3-3" />
  </Outline>
);
