-- Contact data the customer changes in the portal (issue 23, item 1): the telephone, the invoice
-- e-mail and the postal address are written to `customers` by the customers module, and each
-- change is kept here with only the fields it changed, for the provider to read
-- (GET /admin/customer-contact-changes) besides the webhook `customer.contact_updated`.
CREATE TABLE customer_contact_changes (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  changed     jsonb NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX customer_contact_changes_recent
  ON customer_contact_changes (tenant_id, changed_at DESC, id DESC);

ALTER TABLE customer_contact_changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON customer_contact_changes
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT ON customer_contact_changes TO portal_app;
