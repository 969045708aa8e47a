/** Terminals compare as numbers: a request says "1", Redsys' notification echoes "001". */
export function isSameTerminal(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (!/^\d{1,3}$/.test(a) || !/^\d{1,3}$/.test(b)) return false;
  return Number(a) === Number(b);
}

/** The terminal as Redsys writes it in responses: three digits ("001"). */
export function padTerminal(terminal: string): string {
  return terminal.padStart(3, '0');
}
