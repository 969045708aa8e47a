-- The passkey a session was opened with (issue 20: accounts cannot be taken over). Removing a
-- passkey ends the sessions it opened: the owner of a lost or stolen phone removes its passkey from
-- another device, and whoever holds the phone is signed out there too, not only kept from signing
-- in again. NULL for every other way in and for the sessions opened before this release. Written
-- by the auth module only.
--
-- ADD COLUMN without a default changes only the catalogue (no table rewrite, no long lock).
ALTER TABLE customer_sessions ADD COLUMN IF NOT EXISTS passkey_id uuid;
