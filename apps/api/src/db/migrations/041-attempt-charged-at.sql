-- The moment the gateway says it charged a payment (Ds_Date and Ds_Hour of its notification or of
-- the query service's answer, on Madrid's clock), when that differs from when the portal learned
-- of it: a notification that came late, a charge the reconciliation found days later. Receipts and
-- the payment's status page date it by this, as "Mis pagos" and the statement date its instalments
-- (session 39: the receipt named the day the charge was found). NULL: the moment it was settled.
--
-- A nullable column without a default: no rewrite, a short lock only; the previous release's
-- statements still work.
ALTER TABLE payment_attempts ADD COLUMN IF NOT EXISTS charged_at timestamptz;
