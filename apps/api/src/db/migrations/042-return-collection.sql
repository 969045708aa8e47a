-- A returned direct debit keeps the collection it undid, so that a closed month's statement never
-- changes. A return makes the instalment owed again and clears its `paid_date`: the statement,
-- which credited only the instalments paid now, lost June's collection when the bank returned it
-- in July (June's closing changed after the fact, July opened as if June never collected).
--
-- collected_on, collected_cents, collected_method: the instalment's `paid_date`, amount and
-- method when this return reopened it; NULL when it was not paid (a debit never reported
-- collected) or the return reopened nothing (dated before what followed it). The statement
-- credits that collection on its day and charges it back on the return's day.
--
-- fee_paid_on: the day the provider collected the returned debit again
-- (`POST /admin/instalments/status` paid) while the tenant charged its fee: that collection paid
-- the fee (`fee_paid_cents`, with no `paid_attempt_id`), and the statement credits it on that day,
-- so the fee charged on the return's day stays charged. A fee paid by card in the portal keeps
-- being dated by its payment (`paid_attempt_id`, the instalment's `paid_date`).
--
-- Written only by the returned-debits module. No backfill: for the returns recorded before this
-- release the day their debit had been collected is lost (the return cleared `paid_date` and
-- nothing else kept it), so their statements read as they did.
--
-- Nullable columns without a default: no rewrite, a short lock only; the previous release's
-- statements still work.
ALTER TABLE instalment_returns
  ADD COLUMN IF NOT EXISTS collected_on date,
  ADD COLUMN IF NOT EXISTS collected_cents bigint CHECK (collected_cents > 0),
  ADD COLUMN IF NOT EXISTS collected_method text,
  ADD COLUMN IF NOT EXISTS fee_paid_on date;
