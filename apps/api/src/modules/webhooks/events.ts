import type { SqlQuery } from '../../db/database.ts';
import {
  insertContactUpdatedEvent,
  insertEmailChangedEvent,
  insertMandateEndedEvent,
  insertMandateSignedEvent,
  insertMethodRequestEvent,
  insertPaymentSettledEvent,
  insertRefundEvent,
  insertThreadMessageEvent,
  type RefundEventType,
  insertFiscalRequestEvent,
} from './repository.ts';

/**
 * What other modules tell the webhooks module, in the transaction of their change, so that the
 * provider hears of it (docs/webhooks.md). The webhooks module is the one writer of
 * `webhook_events` (migration 018): an event is written only when the tenant has an enabled
 * endpoint, with the payload read from the rows as the change left them.
 */
export const webhookEvents = {
  /** A card payment settled: authorised (even late, after a supersede or a release) or failed. */
  paymentSettled: (sql: SqlQuery, attemptId: string) => insertPaymentSettledEvent(sql, attemptId),
  refund: (sql: SqlQuery, refundId: string, type: RefundEventType) =>
    insertRefundEvent(sql, refundId, type),
  methodRequestCreated: (sql: SqlQuery, requestId: string) =>
    insertMethodRequestEvent(sql, requestId),
  /** A customer changed their telephone, invoice e-mail or postal address (customers module). */
  customerContactUpdated: (sql: SqlQuery, changeId: string) =>
    insertContactUpdatedEvent(sql, changeId),
  /** A customer's sign-in e-mail changed (auth module), confirmed from the new address. */
  customerEmailChanged: (sql: SqlQuery, customerId: string, previousEmail: string) =>
    insertEmailChangedEvent(sql, customerId, previousEmail),
  /** A customer asked to change their fiscal data (fiscal-data module): the organisation decides. */
  fiscalDataChangeRequested: (sql: SqlQuery, requestId: string) =>
    insertFiscalRequestEvent(sql, requestId, 'customer.fiscal_data_change_requested'),
  /** A customer withdrew a fiscal data request before it was decided. */
  fiscalDataChangeWithdrawn: (sql: SqlQuery, requestId: string) =>
    insertFiscalRequestEvent(sql, requestId, 'customer.fiscal_data_change_withdrawn'),
  /** A customer wrote in a conversation about an invoice (invoice-threads module). */
  invoiceThreadMessageCreated: (sql: SqlQuery, messageId: string) =>
    insertThreadMessageEvent(sql, messageId),
  /** A customer signed a SEPA mandate (mandates module); the one it replaced is in the payload. */
  mandateSigned: (sql: SqlQuery, mandateId: string) => insertMandateSignedEvent(sql, mandateId),
  /** A customer's signature of a new mandate ended this one (mandates module). */
  mandateReplaced: (sql: SqlQuery, mandateId: string) =>
    insertMandateEndedEvent(sql, mandateId, 'mandate.replaced'),
  /** The bank account of this mandate was deleted: the mandate ended (mandates module). */
  mandateRevoked: (sql: SqlQuery, mandateId: string) =>
    insertMandateEndedEvent(sql, mandateId, 'mandate.revoked'),
};
