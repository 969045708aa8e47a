/**
 * A PostgreSQL array literal of text values (`{"a","b"}`), passed to a statement as one string
 * parameter and cast there (`$1::text[]`). node-postgres escapes a JavaScript array on the event
 * loop at every statement it is passed to; an ingestion batch passes the same 10,000 ids to
 * several, so it is written once (for the batch's own ids, on the worker thread that parses it).
 */
export type TextArray = string & { readonly textArray: unique symbol };

/** Every value quoted, its backslashes and double quotes escaped: every text survives. */
export function textArray(values: Iterable<string>): TextArray {
  const quoted: string[] = [];
  for (const value of values) quoted.push(`"${value.replace(/[\\"]/g, '\\$&')}"`);
  return `{${quoted.join(',')}}` as TextArray;
}

export const emptyTextArray = textArray([]);
