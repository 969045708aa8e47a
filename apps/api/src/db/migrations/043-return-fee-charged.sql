-- Whether a returned debit's bank fee is charged to the customer, recorded on the return when it
-- is recorded (the tenant's `charge_return_fee` at that moment): what the return's notification
-- and e-mail told the customer (`fee_charged`). The balance, the payment amount and the statement
-- read it from here. They read the tenant's setting of today before, so turning fee charging off
-- (or on) took a fee out of (or put one into) a month already closed (session 40 review).
--
-- Backfilled from each tenant's current setting, the only one known for the returns recorded
-- before this release. NULL (a return written by the previous release during the deploy) reads
-- as the tenant's setting, as before. Written only by the returned-debits module.
--
-- A nullable column without a default: no rewrite; the backfill touches each return once.
ALTER TABLE instalment_returns ADD COLUMN IF NOT EXISTS fee_charged boolean;

UPDATE instalment_returns r SET fee_charged = t.charge_return_fee
  FROM tenants t
 WHERE t.id = r.tenant_id AND r.fee_charged IS NULL;
