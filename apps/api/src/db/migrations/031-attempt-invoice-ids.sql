-- The invoices a payment attempt was started for, kept on the attempt itself (issue 20: money is
-- never silently lost). Until now they were read through the attempt's items joined to the
-- instalments, and a provider's batch may remove a pending instalment once no open payment holds
-- it, which takes the items of a released or superseded attempt with it (ON DELETE CASCADE). A
-- late authorisation of such an attempt then named no invoice: the overpayment notice failed its
-- schema, the whole notification rolled back (500), and the charge was recorded nowhere.
--
-- ADD COLUMN with a constant default changes only the catalogue (no table rewrite, no long lock).
-- Attempts from before it keep '{}' and are read through their items as before.
ALTER TABLE payment_attempts ADD COLUMN IF NOT EXISTS invoice_ids text[] NOT NULL DEFAULT '{}';
