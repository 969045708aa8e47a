const pad = (value: number): string => String(value).padStart(2, '0');

/**
 * A moment as the payment screens show it (spec §9: dates dd/mm/yyyy, time 24 h with the suffix
 * " h"), in the browser's time zone: `05/03/2025 17:30 h`. `null` for an invalid date.
 */
export function formatDateTime(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  const day = `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())} h`;
}
