import { Icon as Outline, type IconProps } from '@/components/ui/icons';

/**
 * Marks used only by the sign-in screens. Decorative (`aria-hidden`): the control carries the label.
 * The provider marks are simple monochrome drawings in the text colour, recognisable without being
 * the providers' artwork.
 */
export const EyeIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </Outline>
);

export const EyeOffIcon = (p: IconProps) => (
  <Outline {...p}>
    <path d="M10.6 5.6A9.7 9.7 0 0 1 12 5.5c6 0 9.5 6.5 9.5 6.5a16.6 16.6 0 0 1-2.4 3.2M6.6 6.6C4 8.3 2.5 12 2.5 12S6 18.5 12 18.5a9.4 9.4 0 0 0 5.4-1.7" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M3.5 3.5l17 17" />
  </Outline>
);

export const CheckCircleIcon = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M8.5 12.25l2.5 2.5 4.75-5" />
  </Outline>
);

export const GoogleMark = (p: IconProps) => (
  <Outline strokeWidth={2.75} strokeLinecap="butt" {...p}>
    <path d="M17.3 6.1A8 8 0 1 0 20 12h-7.5" />
  </Outline>
);

export const AppleMark = ({ className = 'size-6', ...p }: IconProps) => (
  <svg
    xmlns="http://www.w3.org/2000/svg"
    viewBox="0 0 24 24"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
    className={className}
    {...p}
  >
    <path d="M16.4 12.7c0-2.3 1.9-3.4 2-3.5-1.1-1.6-2.8-1.8-3.4-1.8-1.4-.2-2.8.8-3.5.8-.7 0-1.8-.8-3-.8-1.6 0-3 .9-3.8 2.3-1.6 2.8-.4 7 1.2 9.3.8 1.1 1.7 2.4 2.9 2.3 1.2 0 1.6-.7 3-.7s1.8.7 3 .7c1.3 0 2-1.1 2.8-2.3.9-1.3 1.2-2.5 1.3-2.6-.1 0-2.5-.9-2.5-3.7zM14.1 5.9c.6-.8 1.1-1.8 1-2.9-.9 0-2.1.6-2.7 1.4-.6.7-1.1 1.8-1 2.8 1 .1 2.1-.5 2.7-1.3z" />
  </svg>
);

export const MicrosoftMark = ({ className = 'size-6', ...p }: IconProps) => (
  <svg
    xmlns="http://www.w3.org/2000/svg"
    viewBox="0 0 24 24"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
    className={className}
    {...p}
  >
    <path d="M3.5 3.5h8v8h-8zM12.5 3.5h8v8h-8zM3.5 12.5h8v8h-8zM12.5 12.5h8v8h-8z" />
  </svg>
);

/** The round green mark of a success state. */
export const SuccessMark = () => (
  <span className="grid size-14 place-items-center rounded-full bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200">
    <CheckCircleIcon className="size-8" />
  </span>
);
