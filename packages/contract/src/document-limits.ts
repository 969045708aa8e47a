/**
 * Limits of the documents of issue 23, item 3, free of zod so that the web app can import them
 * without the schemas (documents.ts validates with them).
 */

/** A statement or an archive covers at most five years: beyond, the request is refused. */
export const maxDocumentYears = 5;
/** An archive holds at most this many invoices (a selection, or the invoices of a period). */
export const maxZipInvoices = 200;
