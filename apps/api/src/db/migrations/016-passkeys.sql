-- Passkeys (WebAuthn, issue 24): a customer's public-key credentials, per tenant (the relying
-- party is the tenant's host). Only public keys are stored. Written by the auth module only.
CREATE TABLE customer_passkeys (
  tenant_id     text NOT NULL,
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id   uuid NOT NULL,
  credential_id text NOT NULL,
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL,
  backed_up     boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, credential_id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX customer_passkeys_customer ON customer_passkeys (tenant_id, customer_id);

-- The challenges the server sent (registration or sign-in): single use, short-lived, looked up
-- by the challenge the authenticator signed.
CREATE TABLE webauthn_challenges (
  tenant_id   text NOT NULL,
  challenge   text NOT NULL,
  purpose     text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  customer_id uuid,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  PRIMARY KEY (tenant_id, challenge),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['customer_passkeys', 'webauthn_challenges'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_setting(''app.tenant_id'', true)) '
      'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO portal_app', t);
  END LOOP;
END
$$;

-- The operator offers passkeys per tenant (admin CLI `--passkeys on|off`); on by default.
ALTER TABLE tenants ADD COLUMN passkeys boolean NOT NULL DEFAULT true;
