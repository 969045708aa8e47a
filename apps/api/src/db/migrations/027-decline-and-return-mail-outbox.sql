-- Issue 23, items 2 and 4: the e-mails of a declined auto-pay charge and of a returned direct
-- debit are recorded in the transaction that tells the customer (with the notification), sent after
-- it commits, and retried by a periodic job until the mail server takes them; each is marked sent
-- once, so a replay or a second path never sends it again.

-- A declined auto-pay charge, whichever path settled it (the charge's own answer, the
-- reconciliation's query, a notification): `declined_at` is set once, with the notification, and
-- its e-mail is due from `decline_mail_due_at` until `decline_mailed_at`. Written only by
-- modules/auto-pay.
ALTER TABLE auto_pay_charges ADD COLUMN declined_at timestamptz;
ALTER TABLE auto_pay_charges ADD COLUMN decline_mail_due_at timestamptz;
ALTER TABLE auto_pay_charges ADD COLUMN decline_mail_tries integer NOT NULL DEFAULT 0;
ALTER TABLE auto_pay_charges ADD COLUMN decline_mailed_at timestamptz;
CREATE INDEX auto_pay_charges_decline_mail ON auto_pay_charges (tenant_id, decline_mail_due_at)
  WHERE decline_mailed_at IS NULL AND decline_mail_due_at IS NOT NULL;
GRANT UPDATE ON auto_pay_charges TO portal_app;

-- A new return's e-mail (written only by modules/returned-debits): due from `mail_due_at` until
-- `mail_sent_at`. Returns recorded before this migration were e-mailed already (or not at all):
-- none is due.
ALTER TABLE instalment_returns ADD COLUMN mail_due_at timestamptz;
ALTER TABLE instalment_returns ADD COLUMN mail_tries integer NOT NULL DEFAULT 0;
ALTER TABLE instalment_returns ADD COLUMN mail_sent_at timestamptz;
ALTER TABLE instalment_returns ADD COLUMN mail_error text;
CREATE INDEX instalment_returns_mail_due ON instalment_returns (tenant_id, mail_due_at)
  WHERE mail_sent_at IS NULL AND mail_due_at IS NOT NULL;
