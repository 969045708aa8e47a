-- The Redsys merchants a tenant used before its current one (issue 20: money is never silently
-- lost). A checkout started under one merchant (code, terminal, key, host) is answered by Redsys
-- under that merchant: its notification is signed with that merchant's key and names its code,
-- the query service and the refund service answer only requests signed with it. When the operator
-- changes the tenant's merchant code, terminal, key or host (admin CLI `tenant update`), the old
-- one is kept here so that the open checkouts, late authorisations and refunds of its orders are
-- still verified, asked about and refunded with it. Written only by the tenants module; the key is
-- sealed as in tenants.redsys_secret_key (same context: tenant and field).
CREATE TABLE tenant_retired_merchants (
  tenant_id          text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  merchant_code      text NOT NULL,
  terminal           text NOT NULL,
  environment        text NOT NULL CHECK (environment IN ('simulator', 'test', 'production')),
  secret_key         text NOT NULL,
  retired_at         timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, merchant_code, retired_at)
);

ALTER TABLE tenant_retired_merchants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenant_retired_merchants
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT ON tenant_retired_merchants TO portal_app;
