-- Ingestion API (issue 10, docs/ingestion.md): every notification id the provider ever sent, so that
-- a notification is created once, even after the customer deleted it (the inbox deletes rows) and
-- the provider replays the batch that carried it.
CREATE TABLE notification_receipts (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  external_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, external_id)
);

INSERT INTO notification_receipts (tenant_id, external_id)
SELECT tenant_id, external_id FROM notifications WHERE external_id IS NOT NULL
ON CONFLICT DO NOTHING;

ALTER TABLE notification_receipts ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON notification_receipts
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON notification_receipts TO portal_app;
