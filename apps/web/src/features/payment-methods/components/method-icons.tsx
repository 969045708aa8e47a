import { Icon as Outline, type IconProps } from '@/components/ui/icons';

/**
 * Marks used only by the payment-method screens, in the style of components/ui/icons.tsx.
 * Decorative (`aria-hidden`): the text beside each one carries the meaning.
 */
export const TrashIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 13h9l1-13M10 11v5.5M14 11v5.5" />
  </Outline>
);

export const PencilIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4.5 19.5l1-4L15.75 5.25a1.77 1.77 0 0 1 2.5 2.5L8 18l-3.5 1.5zM14 7l3 3" />
  </Outline>
);

export const CopyIcon = (p: IconProps) => (
  <Outline {...p}>
    <rect x="8.5" y="8.5" width="11" height="11" rx="2" />
    <path d="M15.5 8.5V6a1.5 1.5 0 0 0-1.5-1.5H6A1.5 1.5 0 0 0 4.5 6v8A1.5 1.5 0 0 0 6 15.5h2.5" />
  </Outline>
);

export const CheckIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Outline>
);

export const TransferIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4 8.5h14.5M15 5l3.5 3.5L15 12M20 15.5H5.5M9 12l-3.5 3.5L9 19" />
  </Outline>
);

export const LockCardIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M12 3.5l7 2.75v5.25c0 4.25-3 7.5-7 9-4-1.5-7-4.75-7-9V6.25z" />
    <path d="M9 12l2.25 2.25L15.5 10" />
  </Outline>
);
