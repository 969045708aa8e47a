-- Fiscal data the customer asks to change (issue 23, item 1): the name or company name, the tax id
-- and the fiscal address are the organisation's to check, so a change is a request it approves
-- (the customers module then writes the new values to `customers`) or rejects with a reason. The
-- customer may withdraw it while it waits. One request waits per customer at most (the partial
-- unique index); `previous` is the data as it stood when the request was made, for the reviewer.
CREATE TABLE fiscal_data_requests (
  tenant_id    text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id  uuid NOT NULL,
  status       text NOT NULL DEFAULT 'pending'
               CHECK (status IN ('pending', 'approved', 'rejected', 'withdrawn')),
  requested    jsonb NOT NULL,
  previous     jsonb NOT NULL,
  comment      text NOT NULL DEFAULT '' CHECK (length(comment) <= 500),
  reason       text NOT NULL DEFAULT '' CHECK (length(reason) <= 500),
  created_at   timestamptz NOT NULL DEFAULT now(),
  closed_at    timestamptz,
  -- The customer hid the outcome from the profile.
  dismissed_at timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  CHECK ((status = 'pending') = (closed_at IS NULL))
);
CREATE UNIQUE INDEX fiscal_data_requests_one_pending
  ON fiscal_data_requests (tenant_id, customer_id) WHERE status = 'pending';
CREATE INDEX fiscal_data_requests_recent
  ON fiscal_data_requests (tenant_id, created_at DESC, id DESC);
CREATE INDEX fiscal_data_requests_customer
  ON fiscal_data_requests (tenant_id, customer_id, created_at DESC);

ALTER TABLE fiscal_data_requests ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON fiscal_data_requests
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON fiscal_data_requests TO portal_app;
