/**
 * A moment as the payment screens show it (spec §9: dates dd/mm/yyyy, time 24 h with the suffix
 * " h"), from the Madrid date (`YYYY-MM-DD`) and time (`HH:MM`) the server sends, like the
 * notifications' date and time: never the browser's clock or time zone (review #27).
 * `null` when either is not of that shape.
 */
export function formatDateTime(date: string | null | undefined, time: string | null | undefined) {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  const clock = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time ?? '');
  if (!day || !clock) return null;
  return `${day[3]}/${day[2]}/${day[1]} ${clock[1]}:${clock[2]} h`;
}
