import { formatDate, formatMomentDay } from '@/lib/dates';

/** Spec §3: `entry_date` is `YYYY-MM-DD`; screens show `dd/mm/yyyy` (spec §9). `null` if invalid. */
export function formatEntryDate(value: string | null | undefined): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  return formatDate(value.replaceAll('-', ''));
}

/** Initials for the avatar: first letters of the first two words. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toLocaleUpperCase() ?? '')
    .join('');
}

/** A moment the API sends (ISO 8601) as Madrid's calendar day, `dd/mm/yyyy`; empty if invalid. */
export function formatMomentDate(value: string | null | undefined): string {
  return formatMomentDay(value) ?? '';
}
