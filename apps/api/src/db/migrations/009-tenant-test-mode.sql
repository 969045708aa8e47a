-- Production mode (issue 20): a tenant is in test mode only because the operator said so
-- (`npm run admin -- tenant update --id <id> --test-mode`, or `--live`). A tenant in test mode pays
-- through the simulator or Redsys' test host, and every screen of its portal says payments are not
-- real. A production server (NODE_ENV=production) refuses to start while a live tenant is not on
-- Redsys' production host with its own merchant and key, or a tenant in test mode is on the
-- production host (apps/api/src/production-checks.ts). Existing tenants start live: that check
-- names any of them that needs --test-mode.
ALTER TABLE tenants ADD COLUMN test_mode boolean NOT NULL DEFAULT false;
