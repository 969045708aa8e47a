-- Contact and fiscal data changed in the portal that the provider's system may not have yet
-- (docs/decisions/035): one row per customer and field, written by the customers module when the
-- customer changes their contact data or the organisation approves a fiscal data request. A
-- provider's PUT /admin/customers keeps such a field unless it sends the same value (it has taken
-- the change: the row goes), a `*_updated_at` later than `changed_at`, or `override_portal_changes`.
CREATE TABLE customer_portal_changes (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL,
  field       text NOT NULL CHECK (field IN ('phone', 'invoice_email', 'shipping_address',
                'shipping_cp', 'shipping_city', 'shipping_province', 'shipping_country',
                'invoice_name', 'nif', 'address', 'city', 'country')),
  changed_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, customer_id, field),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE customer_portal_changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON customer_portal_changes
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON customer_portal_changes TO portal_app;

-- Changes made before this migration are protected too: the latest contact change of each field,
-- and each field an approved fiscal data request changed.
INSERT INTO customer_portal_changes (tenant_id, customer_id, field, changed_at)
SELECT tenant_id, customer_id, field, max(changed_at)
  FROM (
    SELECT h.tenant_id, h.customer_id, k.field, h.changed_at
      FROM customer_contact_changes h, jsonb_object_keys(h.changed) AS k (field)
    UNION ALL
    SELECT r.tenant_id, r.customer_id, n.key, r.closed_at
      FROM fiscal_data_requests r, jsonb_each_text(r.requested) AS n
     WHERE r.status = 'approved' AND n.value IS DISTINCT FROM r.previous ->> n.key
  ) AS changed
 WHERE field IN ('phone', 'invoice_email', 'shipping_address', 'shipping_cp', 'shipping_city',
                 'shipping_province', 'shipping_country', 'invoice_name', 'nif', 'address', 'city',
                 'country')
 GROUP BY tenant_id, customer_id, field;
