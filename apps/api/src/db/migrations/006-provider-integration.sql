-- Provider integration (issue 10): API keys for the ingestion API, notifications keyed by the
-- provider's id, invitations to new customers and the webhook outbox. Every table keeps tenant_id
-- first in its keys and runs under the same row-level security as the rest.
--
-- Secrets (the Redsys key, OIDC client secrets, the webhook secret) are stored encrypted by the
-- application (lib/secret-box.ts, AES-256-GCM, `enc:v1:` prefix); SQL never sees them in clear.

-- A tenant's API keys: only the SHA-256 of the key is kept (the key is 256 random bits, so a slow
-- hash adds nothing); `prefix` is the key's first characters, to tell keys apart in a listing.
CREATE TABLE api_keys (
  tenant_id    text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  prefix       text NOT NULL,
  key_hash     bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, key_hash)
);

-- Notifications the provider sends carry its own id, so that a replayed batch creates nothing.
ALTER TABLE notifications ADD COLUMN external_id text;
CREATE UNIQUE INDEX notifications_external ON notifications (tenant_id, external_id)
  WHERE external_id IS NOT NULL;

-- Customers created by the ingestion API who have to be invited to set a password: an outbox, so
-- an invitation is never lost when the mail server is down at ingestion time. The token itself is
-- made (and only its hash stored, in password_resets) when the e-mail is sent.
CREATE TABLE customer_invitations (
  tenant_id       text NOT NULL,
  customer_id     uuid NOT NULL,
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error      text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  sent_at         timestamptz,
  PRIMARY KEY (tenant_id, customer_id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX customer_invitations_due ON customer_invitations (next_attempt_at)
  WHERE status = 'pending';

-- The tenant's webhook: one URL and one signing secret per tenant (encrypted by the application).
CREATE TABLE webhook_endpoints (
  tenant_id   text PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  url         text NOT NULL CHECK (url ~ '^https?://'),
  secret      text NOT NULL,
  enabled     boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- The transactional outbox: an event is written in the same transaction as the change it reports
-- (by the triggers below), so no event is lost and none is sent for a change rolled back.
CREATE TABLE webhook_events (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  type        text NOT NULL,
  payload     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- Delivery state of the event to the tenant's endpoint (one endpoint per tenant).
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at    timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX webhook_events_due ON webhook_events (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_events_recent ON webhook_events (tenant_id, created_at DESC, id DESC);

-- Every attempt to deliver an event, as the provider can read it through the API.
CREATE TABLE webhook_attempts (
  tenant_id   text NOT NULL,
  event_id    uuid NOT NULL,
  attempt     integer NOT NULL CHECK (attempt > 0),
  url         text NOT NULL,
  status_code integer,
  error       text,
  duration_ms integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, event_id, attempt),
  FOREIGN KEY (tenant_id, event_id) REFERENCES webhook_events (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'api_keys', 'customer_invitations', 'webhook_endpoints', 'webhook_events', 'webhook_attempts'
  ] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_setting(''app.tenant_id'', true)) '
      'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO portal_app', t);
  END LOOP;
END
$$;

-- An event for the tenant's webhook, written only when the tenant has one configured and enabled.
CREATE FUNCTION portal_webhook_event(p_tenant text, p_type text, p_payload jsonb)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF portal_bulk_load() THEN RETURN; END IF;
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE tenant_id = p_tenant AND enabled) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (tenant_id, type, payload) VALUES (p_tenant, p_type, p_payload);
END $$;

-- payment.succeeded / payment.failed: when an attempt settles (a signed notification, or the
-- reconciliation asking the gateway).
CREATE FUNCTION webhook_payment_settled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_webhook_event(NEW.tenant_id,
    CASE NEW.status WHEN 'paid' THEN 'payment.succeeded' ELSE 'payment.failed' END,
    jsonb_build_object(
      'payment_id', NEW.id,
      'order_number', NEW.order_number,
      'customer_code', (SELECT code FROM customers WHERE tenant_id = NEW.tenant_id AND id = NEW.customer_id),
      'amount_cents', NEW.amount_cents,
      'currency', 'EUR',
      'status', NEW.status,
      'ds_response', NEW.ds_response,
      'authorisation_code', NEW.ds_authorisation_code,
      'settled_at', NEW.settled_at,
      'instalments', coalesce((
        SELECT jsonb_agg(jsonb_build_object(
                 'invoice_id', i.invoice_id, 'seq', i.seq, 'amount_cents', pai.amount_cents)
               ORDER BY i.invoice_id, i.seq)
        FROM payment_attempt_items pai
        JOIN instalments i ON i.tenant_id = pai.tenant_id AND i.id = pai.instalment_id
        WHERE pai.tenant_id = NEW.tenant_id AND pai.attempt_id = NEW.id), '[]'::jsonb)
    ));
  RETURN NEW;
END $$;

CREATE TRIGGER payment_attempts_webhook AFTER UPDATE OF status ON payment_attempts
  FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status IN ('paid', 'failed'))
  EXECUTE FUNCTION webhook_payment_settled();

-- payment_method.request_created: a customer asked for a new main method or for a bank account
-- to be verified; the provider reviews it in its back office and answers through the API.
CREATE FUNCTION webhook_method_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM portal_webhook_event(NEW.tenant_id, 'payment_method.request_created',
    (SELECT jsonb_build_object(
       'request_id', NEW.id,
       'kind', NEW.kind,
       'customer_code', c.code,
       'payment_method', jsonb_build_object(
         'id', pm.id, 'kind', pm.kind, 'alias', pm.alias, 'holder', pm.holder,
         'card_masked', pm.card_masked, 'iban', pm.iban, 'nif', pm.nif, 'entity', pm.entity),
       'created_at', NEW.created_at)
     FROM customers c, payment_methods pm
     WHERE c.tenant_id = NEW.tenant_id AND c.id = NEW.customer_id
       AND pm.tenant_id = NEW.tenant_id AND pm.id = NEW.payment_method_id));
  RETURN NEW;
END $$;

CREATE TRIGGER payment_method_requests_webhook AFTER INSERT ON payment_method_requests
  FOR EACH ROW WHEN (NEW.status = 'pending')
  EXECUTE FUNCTION webhook_method_request();
