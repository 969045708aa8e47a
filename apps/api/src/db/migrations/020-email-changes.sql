-- A change of the sign-in e-mail waits for the new address to confirm it (issue 23, item 1): the
-- link's token is stored hashed, works once and for 24 hours, on its own tenant only.
CREATE TABLE email_changes (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  new_email   text NOT NULL CHECK (length(new_email) BETWEEN 3 AND 254),
  token_hash  bytea NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, token_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE email_changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON email_changes
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON email_changes TO portal_app;
