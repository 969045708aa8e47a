-- A second factor (issue 24): time-based one-time codes (TOTP, RFC 6238) from an authenticator
-- app, optional per customer, required per tenant if the operator says so. Written by the auth
-- module only.

-- The customer's authenticator: the shared secret sealed with the root secret (lib/secret-box.ts),
-- pending until the customer proves the app has it (confirmed_at). `last_step` is the time step
-- of the last code accepted: a code is never accepted twice.
CREATE TABLE customer_totp (
  tenant_id    text NOT NULL,
  customer_id  uuid NOT NULL,
  secret       text NOT NULL,
  confirmed_at timestamptz,
  last_step    bigint NOT NULL DEFAULT 0,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, customer_id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

-- Ten single-use recovery codes, shown once; only their SHA-256 is kept.
CREATE TABLE customer_recovery_codes (
  tenant_id   text NOT NULL,
  customer_id uuid NOT NULL,
  code_hash   bytea NOT NULL,
  used_at     timestamptz,
  PRIMARY KEY (tenant_id, customer_id, code_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

-- Between the password (or link) and the code: a short-lived, single-use challenge that remembers
-- who proved the first factor, how, and where they were going. Only its hash is kept; it counts
-- wrong codes and is burnt after a few.
CREATE TABLE sign_in_challenges (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  token_hash  bytea NOT NULL,
  method      text NOT NULL CHECK (method IN ('password', 'link')),
  remember    boolean NOT NULL DEFAULT false,
  next_path   text NOT NULL DEFAULT '',
  failures    integer NOT NULL DEFAULT 0,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, token_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['customer_totp', 'customer_recovery_codes', 'sign_in_challenges'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_setting(''app.tenant_id'', true)) '
      'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO portal_app', t);
  END LOOP;
END
$$;

-- off: not offered; optional (default): each customer chooses; required: every customer signing
-- in with a password or a link must use one (admin CLI `--second-factor`).
ALTER TABLE tenants ADD COLUMN second_factor text NOT NULL DEFAULT 'optional'
  CHECK (second_factor IN ('off', 'optional', 'required'));
