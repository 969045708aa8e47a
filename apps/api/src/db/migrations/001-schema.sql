-- The portal's schema as far as the product is known (PRODUCT.md, spec §3).
-- Every tenant table keeps tenant_id first in its primary key and in every foreign key, so that a
-- tenant-sharded PostgreSQL (Citus) can distribute it by tenant_id unchanged. Money: integer cents.
-- Only PostgreSQL 15 features: production may run 15 while the embedded PGlite runs 18.

-- The application role: not the owner of any table, not a superuser, so row-level security
-- applies to it. The API switches to it at the start of every tenant transaction.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'portal_app') THEN
    CREATE ROLE portal_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
  -- The migrating (owner) login switches to the application role per transaction.
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT portal_app TO %I', current_user);
  END IF;
END
$$;

CREATE TABLE tenants (
  id                 text PRIMARY KEY CHECK (id ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  company_name       text NOT NULL CHECK (length(company_name) BETWEEN 1 AND 200),
  description        text NOT NULL DEFAULT '',
  primary_color      text NOT NULL DEFAULT 'FF9900' CHECK (primary_color ~ '^#?[0-9A-Fa-f]{6}$'),
  logo_mime          text CHECK (logo_mime IN ('image/svg+xml', 'image/png', 'image/jpeg', 'image/webp')),
  logo_data          bytea,
  -- Links in e-mails are built from this URL, never from the request's Host header.
  canonical_url      text NOT NULL,
  legal_name         text NOT NULL DEFAULT '',
  legal_nif          text NOT NULL DEFAULT '',
  legal_address      text NOT NULL DEFAULT '',
  contact_email      text NOT NULL DEFAULT '',
  privacy_email      text NOT NULL DEFAULT '',
  mail_from          text NOT NULL DEFAULT '',
  bank_iban          text NOT NULL DEFAULT '',
  bank_beneficiary   text NOT NULL DEFAULT '',
  redsys_url         text,
  redsys_merchant_code text,
  redsys_terminal    text,
  redsys_secret_key  text,
  redsys_signature_versions text[] NOT NULL DEFAULT ARRAY['HMAC_SHA256_V1'],
  redsys_pay_methods text[] NOT NULL DEFAULT ARRAY[]::text[],
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);

-- External sign-in (OpenID Connect) configured per tenant; a provider without a row is not shown.
CREATE TABLE tenant_sign_in_providers (
  tenant_id     text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  provider      text NOT NULL CHECK (provider IN ('google', 'apple', 'microsoft')),
  issuer        text NOT NULL,
  client_id     text NOT NULL,
  client_secret text NOT NULL DEFAULT '',
  PRIMARY KEY (tenant_id, provider)
);

CREATE TABLE customers (
  tenant_id          text NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
  id                 uuid NOT NULL DEFAULT gen_random_uuid(),
  code               text NOT NULL,
  email              text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  password_hash      text,
  name               text NOT NULL DEFAULT '',
  last_name          text NOT NULL DEFAULT '',
  nif                text NOT NULL DEFAULT '',
  address            text NOT NULL DEFAULT '',
  city               text NOT NULL DEFAULT '',
  country            text NOT NULL DEFAULT 'España',
  shipping_cp        text NOT NULL DEFAULT '',
  shipping_province  text NOT NULL DEFAULT '',
  shipping_city      text NOT NULL DEFAULT '',
  shipping_country   text NOT NULL DEFAULT '',
  shipping_address   text NOT NULL DEFAULT '',
  phone              text NOT NULL DEFAULT '',
  contact_name       text NOT NULL DEFAULT '',
  invoice_email      text NOT NULL DEFAULT '',
  invoice_name       text NOT NULL DEFAULT '',
  payment_method_label text NOT NULL DEFAULT '',
  entry_date         date,
  language           text NOT NULL DEFAULT 'es' CHECK (language IN ('es', 'ca', 'en', 'eu')),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code)
);
-- E-mail is case-insensitive and unique per tenant.
CREATE UNIQUE INDEX customers_email_key ON customers (tenant_id, lower(email));

-- An external identity (issuer, subject) linked to a customer.
CREATE TABLE customer_identities (
  tenant_id   text NOT NULL,
  issuer      text NOT NULL,
  subject     text NOT NULL,
  customer_id uuid NOT NULL,
  provider    text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, issuer, subject),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);

-- Refresh tokens: only a hash is stored; rotated at every use; a family is one sign-in.
CREATE TABLE refresh_tokens (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  family_id   uuid NOT NULL,
  customer_id uuid NOT NULL,
  token_hash  bytea NOT NULL,
  persistent  boolean NOT NULL,
  expires_at  timestamptz NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  rotated_at  timestamptz,
  revoked_at  timestamptz,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, token_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (tenant_id, family_id);

-- Password-reset tokens: only a hash is stored. A deleted customer leaves its tokens behind with
-- no customer, so that a reset with a genuine token can say "user not found" (spec §8) without the
-- endpoint revealing who is a customer to someone holding no token.
CREATE TABLE password_resets (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid,
  email       text NOT NULL,
  token_hash  bytea NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, token_hash),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE SET NULL (customer_id)
);

CREATE TABLE invoices (
  tenant_id    text NOT NULL,
  id           text NOT NULL CHECK (length(id) BETWEEN 1 AND 64),
  customer_id  uuid NOT NULL,
  invoice_date date NOT NULL,
  base_cents   bigint NOT NULL,
  vat_cents    bigint NOT NULL,
  total_cents  bigint NOT NULL CHECK (total_cents = base_cents + vat_cents),
  cancelled    boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
-- A customer's page of invoices, newest first, is one index range scan.
CREATE INDEX invoices_customer_date ON invoices (tenant_id, customer_id, invoice_date DESC, id DESC);

CREATE TABLE invoice_lines (
  tenant_id        text NOT NULL,
  invoice_id       text NOT NULL,
  line_no          integer NOT NULL CHECK (line_no > 0),
  person           text NOT NULL DEFAULT '',
  concept          text NOT NULL,
  quota            text NOT NULL DEFAULT '',
  quantity         numeric(12, 3) NOT NULL,
  unit_price_cents bigint NOT NULL,
  vat_rate         numeric(5, 2) NOT NULL CHECK (vat_rate >= 0),
  PRIMARY KEY (tenant_id, invoice_id, line_no),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id) ON DELETE CASCADE
);

-- Instalments (efectos): what the customer owes and pays, one or more per invoice.
CREATE TABLE instalments (
  tenant_id    text NOT NULL,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  invoice_id   text NOT NULL,
  seq          integer NOT NULL CHECK (seq > 0),
  customer_id  uuid NOT NULL,
  due_date     date NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  method       text NOT NULL DEFAULT '',
  status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'cancelled', 'returned')),
  paid_date    date,
  CHECK ((status = 'paid') = (paid_date IS NOT NULL)),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, invoice_id, seq),
  FOREIGN KEY (tenant_id, invoice_id) REFERENCES invoices (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX instalments_customer_due ON instalments (tenant_id, customer_id, due_date DESC, invoice_id DESC, seq DESC);

-- Saved payment methods. Cards hold only what Redsys tokenisation returns: never a PAN or CVC.
CREATE TABLE payment_methods (
  tenant_id        text NOT NULL,
  id               uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id      uuid NOT NULL,
  kind             text NOT NULL CHECK (kind IN ('card', 'bank_account', 'bank_transfer')),
  alias            text NOT NULL DEFAULT '',
  holder           text NOT NULL DEFAULT '',
  card_brand       text,
  card_masked      text CHECK (card_masked IS NULL OR card_masked !~ '[0-9]{7,}'),
  card_expiry      text CHECK (card_expiry IS NULL OR card_expiry ~ '^[0-9]{4}$'),
  redsys_reference text,
  iban             text,
  nif              text,
  entity           text,
  status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'unverified')),
  is_main          boolean NOT NULL DEFAULT false,
  created_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX payment_methods_customer ON payment_methods (tenant_id, customer_id) WHERE deleted_at IS NULL;

-- Requests the provider's team reviews: a change of main method, a bank account verification.
CREATE TABLE payment_method_requests (
  tenant_id         text NOT NULL,
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id       uuid NOT NULL,
  kind              text NOT NULL CHECK (kind IN ('main_change', 'verification')),
  payment_method_id uuid NOT NULL,
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  created_at        timestamptz NOT NULL DEFAULT now(),
  reviewed_at       timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, payment_method_id) REFERENCES payment_methods (tenant_id, id) ON DELETE CASCADE
);

-- A card payment through Redsys: created by init-payment, settled only by a signed notification.
CREATE TABLE payment_attempts (
  tenant_id         text NOT NULL,
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id       uuid NOT NULL,
  order_number      text NOT NULL CHECK (order_number ~ '^[0-9]{4}[0-9A-Za-z]{8}$'),
  merchant_code     text NOT NULL,
  terminal          text NOT NULL,
  amount_cents      bigint NOT NULL CHECK (amount_cents > 0),
  currency          text NOT NULL DEFAULT '978',
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed')),
  save_card         boolean NOT NULL DEFAULT false,
  payment_method_id uuid,
  ds_response       text,
  ds_authorisation_code text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  settled_at        timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
-- Redsys order numbers are unique per merchant and terminal.
CREATE UNIQUE INDEX payment_attempts_order ON payment_attempts (tenant_id, merchant_code, terminal, order_number);
CREATE INDEX payment_attempts_pending ON payment_attempts (tenant_id, created_at) WHERE status = 'pending';

CREATE TABLE payment_attempt_items (
  tenant_id     text NOT NULL,
  attempt_id    uuid NOT NULL,
  instalment_id uuid NOT NULL,
  amount_cents  bigint NOT NULL CHECK (amount_cents > 0),
  PRIMARY KEY (tenant_id, attempt_id, instalment_id),
  FOREIGN KEY (tenant_id, attempt_id) REFERENCES payment_attempts (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, instalment_id) REFERENCES instalments (tenant_id, id) ON DELETE CASCADE
);

-- Every notification Redsys sent, as received, whatever its outcome.
CREATE TABLE redsys_notifications (
  tenant_id           text NOT NULL,
  id                  uuid NOT NULL DEFAULT gen_random_uuid(),
  attempt_id          uuid,
  signature_version   text NOT NULL,
  merchant_parameters text NOT NULL,
  signature           text NOT NULL,
  outcome             text NOT NULL,
  received_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE notifications (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid NOT NULL,
  type        text NOT NULL DEFAULT 'info',
  title       text NOT NULL,
  message     text NOT NULL,
  link        text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  read_at     timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX notifications_customer ON notifications (tenant_id, customer_id, created_at DESC);

CREATE TABLE contact_messages (
  tenant_id   text NOT NULL,
  id          uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id uuid,
  name        text NOT NULL,
  company     text NOT NULL,
  subject     text NOT NULL,
  message     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);

-- Row-level security on every tenant table: the application role sees only the rows of the tenant
-- set for the current transaction (`app.tenant_id`); with no tenant set it sees nothing.
DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY[
    'tenant_sign_in_providers', 'customers', 'customer_identities', 'refresh_tokens',
    'password_resets', 'invoices', 'invoice_lines', 'instalments', 'payment_methods',
    'payment_method_requests', 'payment_attempts', 'payment_attempt_items', 'redsys_notifications',
    'notifications', 'contact_messages'
  ] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (tenant_id = current_setting(''app.tenant_id'', true)) '
      'WITH CHECK (tenant_id = current_setting(''app.tenant_id'', true))', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO portal_app', t);
  END LOOP;
END
$$;

ALTER TABLE tenants ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON tenants USING (id = current_setting('app.tenant_id', true));
GRANT SELECT ON tenants TO portal_app;
GRANT USAGE ON SCHEMA public TO portal_app;
