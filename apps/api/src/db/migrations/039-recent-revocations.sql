-- migrate: no-transaction
-- The sessions ended in the last minutes, found without reading every refresh token: with Redis,
-- an instance copies them into Redis whenever its connection is ready again (a Redis restarted
-- empty, or one that missed a revocation while it did not answer; session 36).
CREATE INDEX CONCURRENTLY IF NOT EXISTS refresh_tokens_revoked_recent
  ON refresh_tokens (revoked_at) WHERE revoked_at IS NOT NULL;
