-- Whether a payment actually paid each instalment it was started for (issue 20: the customer is
-- shown the truth about their money). An authorisation pays the instalments still unpaid; the rest
-- of its charge is a surplus, refunded. "Mis pagos" linked an instalment to the latest payment
-- that held it, which after a double payment was the one refunded whole: its receipt said it paid
-- the instalment. Set by the payments module (payInstalments) when an authorisation is recorded:
-- true for the instalments it paid, false for the others; NULL for the items recorded before this
-- release (read as before).
--
-- ADD COLUMN without a default changes only the catalogue (no table rewrite, no long lock).
ALTER TABLE payment_attempt_items ADD COLUMN IF NOT EXISTS paid boolean;
