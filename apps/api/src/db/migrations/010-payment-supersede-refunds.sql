-- Money is never silently lost or blocked (issue 20).
--
-- 1. A customer who leaves the gateway's card page (Back, a closed tab) starts again at once: the
--    new start marks the open attempts holding any of its instalments 'superseded' and frees their
--    items, in the same transaction. The gateway may still answer for a superseded attempt: its
--    `settled_at` stays NULL until it does (or the reconciliation learns it never received it), so
--    that a late authorisation is still asked for and honoured.
ALTER TABLE payment_attempts DROP CONSTRAINT payment_attempts_status_check;
ALTER TABLE payment_attempts ADD CONSTRAINT payment_attempts_status_check
  CHECK (status IN ('pending', 'paid', 'failed', 'superseded'));
ALTER TABLE payment_attempts ADD COLUMN superseded_by uuid;
CREATE INDEX payment_attempts_open_superseded ON payment_attempts (tenant_id, created_at)
  WHERE status = 'superseded' AND settled_at IS NULL;

-- 2. An authorisation that finds its instalments already paid (a superseded or released attempt
--    answered late, two tabs paying at once) is an overpayment: the surplus is refunded through
--    Redsys (trataPeticionREST, type 3) or, where the tenant turned automatic refunds off, listed
--    for the operator (npm run admin -- overpayments list).
ALTER TABLE tenants ADD COLUMN auto_refund boolean NOT NULL DEFAULT true;

-- One refund per attempt (the unique key): however many times the authorisation is notified, the
-- surplus is recorded once. Written only by modules/payments (the service records it, the refund
-- outbox sends it, the admin CLI resolves it through the same repository).
--   pending   waiting to be sent to Redsys (next_attempt_at)
--   sending   taken by a sender under a lease; a lease that runs out means the outcome is unknown,
--             so it goes to review, never sent twice
--   refunded  Redsys answered 0900
--   review    for the operator: automatic refunds off, refused for good, too many failures
--   resolved  the operator dealt with it (resolved_note)
CREATE TABLE payment_refunds (
  tenant_id        text NOT NULL,
  id               uuid NOT NULL DEFAULT gen_random_uuid(),
  attempt_id       uuid NOT NULL,
  customer_id      uuid NOT NULL,
  amount_cents     bigint NOT NULL CHECK (amount_cents > 0),
  status           text NOT NULL CHECK (status IN ('pending', 'sending', 'refunded', 'review', 'resolved')),
  review_reason    text CHECK (review_reason IN ('auto_refund_off', 'refused', 'failed_attempts', 'outcome_unknown', 'not_configured')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_code        text,
  ds_authorisation_code text,
  resolved_note    text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  refunded_at      timestamptz,
  resolved_at      timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, attempt_id),
  FOREIGN KEY (tenant_id, attempt_id) REFERENCES payment_attempts (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX payment_refunds_due ON payment_refunds (tenant_id, next_attempt_at)
  WHERE status IN ('pending', 'sending');
CREATE INDEX payment_refunds_open ON payment_refunds (tenant_id, created_at)
  WHERE status = 'review';

ALTER TABLE payment_refunds ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON payment_refunds
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON payment_refunds TO portal_app;

-- 3. The customer hears what happened in their language: a notification keeps its type and
--    parameters (amounts in cents, invoice ids), which the web app words; title and message stay
--    as written for other readers.
ALTER TABLE notifications ADD COLUMN params jsonb;

-- 4. Webhooks. payment.succeeded also when a superseded or released attempt is authorised late;
--    payment.failed only when a pending attempt fails (a superseded attempt is no event).
DROP TRIGGER payment_attempts_webhook ON payment_attempts;
CREATE TRIGGER payment_attempts_webhook AFTER UPDATE OF status ON payment_attempts
  FOR EACH ROW WHEN (NEW.kind = 'payment' AND OLD.status <> NEW.status
                     AND (NEW.status = 'paid' OR (OLD.status = 'pending' AND NEW.status = 'failed')))
  EXECUTE FUNCTION webhook_payment_settled();

-- payment.overpaid when a surplus is recorded; payment.refunded when Redsys refunded it;
-- payment.refund_failed when an automatic refund is given up and left for the operator.
CREATE FUNCTION webhook_payment_refund() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  kind text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    kind := 'payment.overpaid';
  ELSIF NEW.status = 'refunded' THEN
    kind := 'payment.refunded';
  ELSIF NEW.status = 'review' AND OLD.status IN ('pending', 'sending') THEN
    kind := 'payment.refund_failed';
  ELSE
    RETURN NEW;
  END IF;
  PERFORM portal_webhook_event(NEW.tenant_id, kind,
    (SELECT jsonb_build_object(
       'refund_id', NEW.id,
       'payment_id', a.id,
       'order_number', a.order_number,
       'customer_code', c.code,
       'paid_cents', a.amount_cents,
       'refund_cents', NEW.amount_cents,
       'currency', 'EUR',
       'refund', CASE WHEN NEW.review_reason = 'auto_refund_off' THEN 'manual' ELSE 'automatic' END,
       'status', NEW.status,
       'review_reason', NEW.review_reason,
       'last_code', NEW.last_code,
       'authorisation_code', NEW.ds_authorisation_code,
       'attempts', NEW.attempts,
       'created_at', NEW.created_at,
       'refunded_at', NEW.refunded_at)
     FROM payment_attempts a, customers c
     WHERE a.tenant_id = NEW.tenant_id AND a.id = NEW.attempt_id
       AND c.tenant_id = NEW.tenant_id AND c.id = NEW.customer_id));
  RETURN NEW;
END $$;

CREATE TRIGGER payment_refunds_webhook_insert AFTER INSERT ON payment_refunds
  FOR EACH ROW EXECUTE FUNCTION webhook_payment_refund();
CREATE TRIGGER payment_refunds_webhook_update AFTER UPDATE OF status ON payment_refunds
  FOR EACH ROW WHEN (OLD.status <> NEW.status) EXECUTE FUNCTION webhook_payment_refund();
