declare module 'bowser/src/constants.js' {
  /** Bowser's browsers by alias: the names it knows. */
  export const BROWSER_MAP: Record<string, string>;
}
