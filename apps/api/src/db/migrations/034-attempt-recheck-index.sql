-- migrate: no-transaction
-- The attempts the reconciliation asks about again (033), found without reading the others.
CREATE INDEX CONCURRENTLY IF NOT EXISTS payment_attempts_recheck
  ON payment_attempts (tenant_id, recheck_at) WHERE recheck_at IS NOT NULL;
