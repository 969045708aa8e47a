/** The red button of a destructive action (the selection bar's and the dialog's "Eliminar"). */
export const dangerButtonClasses =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700 disabled:cursor-not-allowed disabled:opacity-60 dark:focus-visible:outline-red-400';
