/** The frame of a screen's content: centred, as wide as the header, mobile-first padding. */
export const pageClasses = 'mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 lg:py-8';

/** A raised surface (card) in both themes; printed as a plain box. */
export const cardClasses =
  'rounded-2xl bg-white shadow-sm ring-1 ring-gray-200 dark:bg-gray-800 dark:ring-gray-700 print:shadow-none print:ring-gray-300';

/** A card that is a link or button: hover and a visible focus ring. */
export const interactiveCardClasses =
  'transition hover:ring-primary-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-ink';

/** The title of a screen. */
export const pageTitleClasses = 'text-2xl font-bold text-gray-900 sm:text-3xl dark:text-gray-50';

/** The title of a section within a screen. */
export const sectionTitleClasses = 'text-lg font-semibold text-gray-900 dark:text-gray-50';
