-- The session that asked for a change of the sign-in e-mail (issue 20: accounts cannot be taken
-- over). The owner who ends a session they do not recognise (from "Your devices", "end every other
-- session", the "was this you?" link, or by removing the passkey that opened it) also ends what
-- that session asked for: before, a change asked for from a lost phone stayed valid after the
-- phone was signed out, and its link (in the thief's mailbox) moved the account. NULL for the
-- changes asked for before this release. Written by the auth module only.
--
-- ADD COLUMN without a default changes only the catalogue (no table rewrite, no long lock).
ALTER TABLE email_changes ADD COLUMN IF NOT EXISTS session_id uuid;
