-- Bizum through Redsys (issue 23, item 5): how the customer chose to pay each attempt, so the
-- result screen, the receipt and the paid instalment say "Bizum" rather than "Tarjeta". Existing
-- attempts were all card payments (PayPal was never configured).
ALTER TABLE payment_attempts
  ADD COLUMN pay_method text NOT NULL DEFAULT 'card' CHECK (pay_method IN ('card', 'bizum', 'paypal'));
