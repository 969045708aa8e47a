-- "Your devices" (issue 24): one row per sign-in, that is per refresh-token family, so that the
-- customer can see where they are signed in and end a session. Revocation stays where it was
-- (refresh_tokens.revoked_at of the family, read on every bearer call); this table only describes
-- the session. Written by the auth module only.
--
-- Nothing here places a person: the browser and system are parsed from the User-Agent when the
-- session opens; of the address only a network prefix is kept (IPv4 /24, IPv6 /48), never the
-- address itself. `device_hash` is the SHA-256 of a random per-browser cookie: a sign-in from a
-- browser the customer never used before sends a "was this you?" e-mail whose link (its hash in
-- `end_token_hash`) ends that session without signing in.
CREATE TABLE customer_sessions (
  tenant_id      text NOT NULL,
  id             uuid NOT NULL,
  customer_id    uuid NOT NULL,
  method         text NOT NULL CHECK (method IN ('password', 'external', 'link', 'passkey')),
  browser        text NOT NULL DEFAULT '',
  os             text NOT NULL DEFAULT '',
  device_type    text NOT NULL DEFAULT '',
  network        text NOT NULL DEFAULT '',
  device_hash    bytea,
  end_token_hash bytea,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_used_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX customer_sessions_customer ON customer_sessions (tenant_id, customer_id, device_hash);
CREATE UNIQUE INDEX customer_sessions_end_token ON customer_sessions (tenant_id, end_token_hash)
  WHERE end_token_hash IS NOT NULL;

-- The sessions open before this release are listed too, described as unknown.
INSERT INTO customer_sessions (tenant_id, id, customer_id, method, created_at, last_used_at)
SELECT tenant_id, family_id, min(customer_id::text)::uuid, 'password', min(created_at), max(created_at)
  FROM refresh_tokens
 GROUP BY tenant_id, family_id;

ALTER TABLE customer_sessions ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON customer_sessions
  USING (tenant_id = current_setting('app.tenant_id', true))
  WITH CHECK (tenant_id = current_setting('app.tenant_id', true));
GRANT SELECT, INSERT, UPDATE, DELETE ON customer_sessions TO portal_app;
