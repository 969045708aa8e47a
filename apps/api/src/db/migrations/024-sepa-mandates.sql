-- SEPA Core direct-debit mandates signed in the portal (issue 23, item 6). Adding a bank account
-- for direct debit signs one: the customer accepts its text explicitly, and the moment, the
-- address and the browser are kept as evidence. A customer has at most one active mandate: the
-- new one marks the previous one replaced, in the same transaction. The mandates module is the
-- one writer; the provider reads them at GET /admin/mandates and hears of each by webhook.
ALTER TABLE tenants ADD COLUMN sepa_creditor_id text NOT NULL DEFAULT '';

CREATE TABLE sepa_mandates (
  tenant_id         text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id       uuid NOT NULL,
  payment_method_id uuid,
  -- At most 35 characters of the SEPA character set, unique per creditor (the tenant).
  reference         text NOT NULL CHECK (reference ~ '^[A-Za-z0-9/?:().,''+ -]{1,35}$'),
  creditor_id       text NOT NULL CHECK (length(creditor_id) BETWEEN 8 AND 35),
  creditor_name     text NOT NULL,
  creditor_address  text NOT NULL,
  debtor_name       text NOT NULL,
  debtor_nif        text NOT NULL,
  iban              text NOT NULL CHECK (iban ~ '^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$'),
  payment_type      text NOT NULL DEFAULT 'recurrent' CHECK (payment_type = 'recurrent'),
  language          text NOT NULL CHECK (language IN ('es', 'ca', 'en', 'eu')),
  signed_at         timestamptz NOT NULL DEFAULT now(),
  signer_ip         text NOT NULL,
  user_agent        text NOT NULL DEFAULT '',
  status            text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'replaced', 'revoked')),
  replaced_by       uuid,
  ended_at          timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, reference),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, payment_method_id) REFERENCES payment_methods (tenant_id, id),
  -- Deferred: the new mandate and the mark on the one it replaces are written in one transaction.
  FOREIGN KEY (tenant_id, replaced_by) REFERENCES sepa_mandates (tenant_id, id)
    DEFERRABLE INITIALLY DEFERRED,
  CHECK ((status = 'replaced') = (replaced_by IS NOT NULL)),
  CHECK ((status = 'active') = (ended_at IS NULL))
);
-- Two signatures at once leave exactly one active mandate (the service also serialises them).
CREATE UNIQUE INDEX sepa_mandates_one_active
  ON sepa_mandates (tenant_id, customer_id) WHERE status = 'active';
CREATE INDEX sepa_mandates_customer ON sepa_mandates (tenant_id, customer_id, signed_at DESC);
CREATE INDEX sepa_mandates_recent ON sepa_mandates (tenant_id, signed_at DESC, id DESC);

ALTER TABLE sepa_mandates ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sepa_mandates
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON sepa_mandates TO portal_app;
