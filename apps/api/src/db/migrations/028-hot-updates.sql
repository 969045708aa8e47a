-- Room on every page for updates in place (issue 20, isolation): the provider's batches rewrite
-- invoice amounts, lines and instalments, and payments rewrite instalment states, but none of those
-- columns is indexed. With full pages (fillfactor 100, the default) almost no update was HOT
-- (0.4 % in the benchmark): each one wrote a new row version on another page and an entry in every
-- index of the table (two to three), which is most of a batch's work in PostgreSQL. With 10 % of
-- each page kept free, an update whose indexed columns are unchanged stays on its page and touches
-- no index (56 % HOT after the first replay in the benchmark, rising as pages are pruned).
--
-- Cheap on a live database: SET (fillfactor) takes a SHARE UPDATE EXCLUSIVE lock (reads and writes
-- go on) and rewrites nothing. Pages written from now on keep the room; existing full pages gain
-- it as vacuum and page pruning remove dead versions. An operator may rewrite a table off-peak
-- (pg_repack) to get it everywhere at once; nothing here depends on that.
ALTER TABLE invoices SET (fillfactor = 90);
ALTER TABLE invoice_lines SET (fillfactor = 90);
ALTER TABLE instalments SET (fillfactor = 90);
ALTER TABLE payment_attempts SET (fillfactor = 90);
