-- Auto-pay with the card on file (issue 23, item 2): the customer opts in for one saved card, and
-- the job queue charges each instalment on its due date as a merchant-initiated (MIT) card-on-file
-- operation through Redsys' REST service (redsys-notes §4.2).

-- The tenant allows it or not (off by default: it needs Redsys' MIT exception activated on the
-- terminal), gives notice some days before, and retries a declined charge a few times.
ALTER TABLE tenants ADD COLUMN auto_pay boolean NOT NULL DEFAULT false;
ALTER TABLE tenants ADD COLUMN auto_pay_notice_days integer NOT NULL DEFAULT 3
  CHECK (auto_pay_notice_days BETWEEN 0 AND 30);
ALTER TABLE tenants ADD COLUMN auto_pay_retries integer NOT NULL DEFAULT 2
  CHECK (auto_pay_retries BETWEEN 0 AND 10);
ALTER TABLE tenants ADD COLUMN auto_pay_retry_days integer NOT NULL DEFAULT 2
  CHECK (auto_pay_retry_days BETWEEN 1 AND 30);

-- The scheme's transaction id of the first, customer-present operation (Ds_Merchant_Cof_Txnid):
-- an MIT charge sends it back (DS_MERCHANT_COF_TXNID). Cards saved before it was kept have none
-- and cannot be charged without the customer.
ALTER TABLE payment_methods ADD COLUMN redsys_cof_txnid text
  CHECK (redsys_cof_txnid IS NULL OR redsys_cof_txnid ~ '^[0-9A-Za-z]{1,40}$');

-- Who started a payment: the customer on the gateway's page, or the portal (an auto-pay charge).
-- A declined merchant-initiated charge is worded by the auto-pay module, not as a card page's.
ALTER TABLE payment_attempts ADD COLUMN initiated_by text NOT NULL DEFAULT 'customer'
  CHECK (initiated_by IN ('customer', 'merchant'));

-- The customer's opt-in: one card at most per customer (the primary key). Deleting the row turns
-- auto-pay off at once; `since` is when it was turned on: instalments due before it are not
-- charged (they were already owed when the customer chose). Written only by modules/auto-pay.
CREATE TABLE auto_pay_cards (
  tenant_id         text NOT NULL,
  customer_id       uuid NOT NULL,
  payment_method_id uuid NOT NULL,
  since             date NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, customer_id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, payment_method_id) REFERENCES payment_methods (tenant_id, id) ON DELETE CASCADE
);

-- One row per charge of an instalment: attempt 1 on the due date, then the retries after a
-- decline. The unique key (instalment, attempt number) is what makes a charge happen once however
-- many sweeps, jobs or instances try it: the row is inserted in the transaction that creates the
-- payment attempt, before anything is sent to Redsys. Written only by modules/auto-pay.
CREATE TABLE auto_pay_charges (
  tenant_id         text NOT NULL,
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  instalment_id     uuid NOT NULL,
  attempt_no        integer NOT NULL CHECK (attempt_no BETWEEN 1 AND 11),
  customer_id       uuid NOT NULL,
  payment_method_id uuid NOT NULL,
  payment_attempt_id uuid NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, instalment_id, attempt_no),
  FOREIGN KEY (tenant_id, instalment_id) REFERENCES instalments (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, payment_attempt_id) REFERENCES payment_attempts (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX auto_pay_charges_customer ON auto_pay_charges (tenant_id, customer_id, created_at DESC);

-- The e-mail some days before a charge, once per instalment (the primary key).
CREATE TABLE auto_pay_notices (
  tenant_id     text NOT NULL,
  instalment_id uuid NOT NULL,
  customer_id   uuid NOT NULL,
  sent_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, instalment_id),
  FOREIGN KEY (tenant_id, instalment_id) REFERENCES instalments (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE auto_pay_cards ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON auto_pay_cards
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON auto_pay_cards TO portal_app;

ALTER TABLE auto_pay_charges ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON auto_pay_charges
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT ON auto_pay_charges TO portal_app;

ALTER TABLE auto_pay_notices ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON auto_pay_notices
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT ON auto_pay_notices TO portal_app;
