-- How a customer reaches the organisation besides its mailbox (review #17 and #18): a telephone,
-- a website (https only, checked by the admin CLI and again by the web app) and opening hours in
-- the organisation's own words. Shown by the company dialog and the contact page when set; empty
-- means not set. Constant defaults: PostgreSQL adds the columns without rewriting a row.
ALTER TABLE tenants
  ADD COLUMN phone text NOT NULL DEFAULT '',
  ADD COLUMN website text NOT NULL DEFAULT '',
  ADD COLUMN opening_hours text NOT NULL DEFAULT '';
