/**
 * How much one customer may keep or have waiting (issue 20): the API refuses more with a 409 and
 * the code beside each, which the web app words with these numbers. Free of zod: the browser
 * imports it.
 */
export const customerLimits = {
  /** Saved payment methods (cards, bank accounts, transfer), counting cards being added. */
  paymentMethods: 10,
  /** Requests (main method change, account verification) waiting for the provider's review. */
  pendingRequests: 5,
  /** Card additions still waiting for the gateway's answer (each an open Redsys checkout). */
  pendingCardAttempts: 3,
  /** Open conversations about invoices (issue 23, item 7). */
  openInvoiceThreads: 5,
  /** Messages (first ones and replies) a customer writes per hour in those conversations. */
  invoiceThreadMessagesPerHour: 20,
} as const;
