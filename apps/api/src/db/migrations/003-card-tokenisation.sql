-- Saving a card without paying: a Redsys tokenisation (type 7, 0 EUR) kept as an attempt of its
-- own kind, so the same signed-notification path settles it.
ALTER TABLE payment_attempts ADD COLUMN kind text NOT NULL DEFAULT 'payment'
  CHECK (kind IN ('payment', 'card_verification'));
ALTER TABLE payment_attempts ADD COLUMN card_alias text NOT NULL DEFAULT '';
ALTER TABLE payment_attempts DROP CONSTRAINT payment_attempts_amount_cents_check;
ALTER TABLE payment_attempts ADD CONSTRAINT payment_attempts_amount_cents_check
  CHECK (amount_cents > 0 OR (kind = 'card_verification' AND amount_cents = 0));
