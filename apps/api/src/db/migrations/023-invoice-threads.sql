-- "Ask about this invoice" (issue 23, item 7): a customer's conversation with the organisation
-- about one of their invoices. The invoice-threads module is the one writer of these tables. Text
-- only: nothing uploaded is stored. At most one open conversation per invoice and customer.
CREATE TABLE invoice_threads (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  invoice_id  text NOT NULL,
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  last_message_at timestamptz NOT NULL DEFAULT now(),
  closed_at   timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX invoice_threads_one_open
  ON invoice_threads (tenant_id, customer_id, invoice_id) WHERE status = 'open';
CREATE INDEX invoice_threads_customer
  ON invoice_threads (tenant_id, customer_id, last_message_at DESC);
CREATE INDEX invoice_threads_recent ON invoice_threads (tenant_id, created_at DESC, id DESC);

CREATE TABLE invoice_thread_messages (
  tenant_id   text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  thread_id   uuid NOT NULL,
  author      text NOT NULL CHECK (author IN ('customer', 'organisation')),
  author_name text NOT NULL DEFAULT '' CHECK (length(author_name) <= 80),
  body        text NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, thread_id) REFERENCES invoice_threads (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX invoice_thread_messages_thread
  ON invoice_thread_messages (tenant_id, thread_id, created_at, id);
CREATE INDEX invoice_thread_messages_recent
  ON invoice_thread_messages (tenant_id, created_at, id);

-- Until when each reader has read a conversation: the customer's marker says which are unread.
CREATE TABLE invoice_thread_reads (
  tenant_id text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  thread_id uuid NOT NULL,
  reader    text NOT NULL CHECK (reader IN ('customer', 'organisation')),
  read_at   timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, thread_id, reader),
  FOREIGN KEY (tenant_id, thread_id) REFERENCES invoice_threads (tenant_id, id) ON DELETE CASCADE
);

ALTER TABLE invoice_threads ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invoice_threads
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON invoice_threads TO portal_app;

ALTER TABLE invoice_thread_messages ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invoice_thread_messages
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT ON invoice_thread_messages TO portal_app;

ALTER TABLE invoice_thread_reads ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invoice_thread_reads
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE ON invoice_thread_reads TO portal_app;
