-- Sign-in by a link sent by e-mail (issue 24): "send me a link" on the sign-in screen. Only the
-- token's SHA-256 is stored; a link is single use (used_at), short-lived (expires_at), bound to its
-- tenant (RLS) and to one customer; it can carry the in-app path to open after signing in (an
-- invoice, say). Written by the auth module only.
CREATE TABLE sign_in_links (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  token_hash  bytea NOT NULL,
  next_path   text NOT NULL DEFAULT '',
  remember    boolean NOT NULL DEFAULT false,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, token_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE sign_in_links ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sign_in_links
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON sign_in_links TO portal_app;

-- The operator turns the method on or off per tenant (admin CLI `--sign-in-link on|off`); on by
-- default. Off, the sign-in screen does not offer it and outstanding links stop working.
ALTER TABLE tenants ADD COLUMN sign_in_link boolean NOT NULL DEFAULT true;
