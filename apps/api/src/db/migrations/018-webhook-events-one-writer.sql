-- Webhook events have one writer (issue 22, CONVENTIONS.md "one writer per table"): the API's
-- webhooks module (modules/webhooks/events.ts). The triggers of migrations 006, 007 and 010 wrote
-- them from SQL on other modules' tables; the payments and payment-methods modules now ask the
-- webhooks module, in the same transaction, for the same five events with the same payloads:
-- payment.succeeded, payment.failed, payment.overpaid, payment.refunded, payment.refund_failed,
-- and payment_method.request_created.

DROP TRIGGER payment_attempts_webhook ON payment_attempts;
DROP TRIGGER payment_method_requests_webhook ON payment_method_requests;
DROP TRIGGER payment_refunds_webhook_insert ON payment_refunds;
DROP TRIGGER payment_refunds_webhook_update ON payment_refunds;
DROP FUNCTION webhook_payment_settled();
DROP FUNCTION webhook_method_request();
DROP FUNCTION webhook_payment_refund();
DROP FUNCTION portal_webhook_event(text, text, jsonb);
-- No trigger honours it any more: the demo seed's bulk load writes no events by writing none.
DROP FUNCTION portal_bulk_load();
