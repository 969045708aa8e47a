-- The Madrid day an instalment became its customer's when the provider moved its invoice from
-- another customer (PUT /admin/invoices); NULL while it is still the customer's it was created for.
-- Auto-pay charges a card only for what was that customer's before it fell due: an invoice moved
-- to a customer on or after its due date had no notice to them, and before session 37 their card
-- was charged for it at the next sweep, unannounced (arrears, like those at opt-in, are paid by
-- hand).
--
-- A nullable column without a default: no rewrite, a short lock only; the previous release's
-- statements still work.
ALTER TABLE instalments ADD COLUMN customer_since date;
