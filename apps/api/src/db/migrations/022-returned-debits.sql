-- Returned direct debits (issue 23, item 4): the provider reports a SEPA debit that came back (the
-- instalment becomes 'returned'), with the bank's R-transaction reason code and the fee the bank
-- charged. Written only by the returned-debits module; one row per instalment and return date, so
-- a replayed report changes nothing and notifies nobody.
CREATE TABLE instalment_returns (
  tenant_id      text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id             uuid NOT NULL DEFAULT gen_random_uuid(),
  instalment_id  uuid NOT NULL,
  customer_id    uuid NOT NULL,
  return_date    date NOT NULL,
  reason_code    text NOT NULL CHECK (reason_code ~ '^[A-Z0-9]{4}$'),
  fee_cents      bigint NOT NULL CHECK (fee_cents >= 0),
  -- What a card payment of the instalment collected for the fee, and which payment did.
  fee_paid_cents bigint CHECK (fee_paid_cents >= 0),
  paid_attempt_id uuid,
  created_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, instalment_id, return_date),
  FOREIGN KEY (tenant_id, instalment_id) REFERENCES instalments (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE instalment_returns ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON instalment_returns
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON instalment_returns TO portal_app;

-- Whether the customer pays the bank's fee with the returned instalment (admin CLI
-- --charge-return-fee); off by default.
ALTER TABLE tenants ADD COLUMN charge_return_fee boolean NOT NULL DEFAULT false;

-- The part of a card payment's item that pays a returned debit's fee (0 for every other item):
-- the attempt's amount is the sum of the items' amount_cents + fee_cents.
ALTER TABLE payment_attempt_items
  ADD COLUMN fee_cents bigint NOT NULL DEFAULT 0 CHECK (fee_cents >= 0);
