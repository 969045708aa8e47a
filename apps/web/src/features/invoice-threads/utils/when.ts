import { madridMomentOf } from '@/lib/dates';

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * An instant of a message on the portal's clock (Madrid), as spec §9 writes dates and times in
 * every language: `dd/mm/yyyy HH:MM`, 24 hours ("12/1/26, 11:30 PM" in English read 12 January in
 * Spain, and Basque's "26/12/1" 26 December 2001: session 39).
 */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const { year, month, day, time } = madridMomentOf(date);
  return `${pad(day)}/${pad(month)}/${year} ${time}`;
}
