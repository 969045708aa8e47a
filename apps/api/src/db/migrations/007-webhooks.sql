-- Webhooks (issue 10), on top of migration 006.
--
-- 1. A card saved through a tokenisation (payment_attempts.kind = 'card_verification', 0 EUR) is
--    not a payment: it no longer writes payment.succeeded / payment.failed events.
DROP TRIGGER payment_attempts_webhook ON payment_attempts;
CREATE TRIGGER payment_attempts_webhook AFTER UPDATE OF status ON payment_attempts
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IN ('paid', 'failed')
                     AND NEW.kind = 'payment')
  EXECUTE FUNCTION webhook_payment_settled();

-- 2. The dispatcher takes each tenant's due events under that tenant's row-level security: an
--    index that starts with the tenant (as every other key does), so that it stays a short range
--    scan however many tenants have events waiting, and shards with the tenant.
CREATE INDEX webhook_events_tenant_due ON webhook_events (tenant_id, next_attempt_at)
  WHERE status = 'pending';
