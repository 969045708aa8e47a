-- Card payments (issue 5): where each tenant's payment form goes, and at most one payment in
-- progress per instalment, enforced by the database so that two simultaneous "Pay" clicks cannot
-- both start one.

-- 'simulator' is the local Redsys simulator of the demo; 'test' and 'production' are Redsys' hosts.
ALTER TABLE tenants
  ADD COLUMN redsys_environment text NOT NULL DEFAULT 'simulator'
    CHECK (redsys_environment IN ('simulator', 'test', 'production'));
ALTER TABLE tenants DROP COLUMN redsys_url;

-- An item holds its instalment while its attempt is pending; settling the attempt releases it.
ALTER TABLE payment_attempt_items ADD COLUMN active boolean NOT NULL DEFAULT true;
CREATE UNIQUE INDEX payment_attempt_items_one_active
  ON payment_attempt_items (tenant_id, instalment_id) WHERE active;

-- What the customer asked for, kept for the result screen and the receipt.
ALTER TABLE payment_attempts ADD COLUMN signature_version text NOT NULL DEFAULT 'HMAC_SHA256_V1';
ALTER TABLE payment_attempts ADD COLUMN language text NOT NULL DEFAULT 'es';
CREATE INDEX payment_attempts_customer ON payment_attempts (tenant_id, customer_id, created_at DESC);
