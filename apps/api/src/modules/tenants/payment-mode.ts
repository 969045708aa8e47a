import { PUBLIC_TEST_MERCHANT, signsAsPublicTestKey } from '@portal/redsys';
import type { TenantPaymentMode } from './repository.ts';

const hostOf = { simulator: 'the local Redsys simulator', test: "Redsys' test host" } as const;

/**
 * What is wrong, in production, with how one tenant takes payments. A tenant is either in test mode
 * (the operator said so: `--test-mode`), paying through the simulator or Redsys' test host, or live
 * (`--live`), paying through Redsys' production host with its own merchant and key. `key` is the
 * tenant's Redsys key in clear (null when none is set).
 */
export function tenantModeProblems(tenant: TenantPaymentMode, key: string | null): string[] {
  const id = tenant.id;
  const fix = `npm run admin -- tenant update --id ${id}`;
  if (tenant.test_mode) {
    return tenant.redsys_environment === 'production'
      ? [
          `tenant ${id}: in test mode but paying through Redsys' production host, where payments are real while its portal says they are not (\`${fix} --live\`, or --redsys-environment test).`,
        ]
      : [];
  }
  const problems: string[] = [];
  if (tenant.redsys_environment !== 'production') {
    problems.push(
      `tenant ${id}: live but paying through ${hostOf[tenant.redsys_environment]}, where no payment is real: put it in test mode (\`${fix} --test-mode\`) or on Redsys' production host (--redsys-environment production).`,
    );
  }
  if (tenant.redsys_merchant_code === PUBLIC_TEST_MERCHANT.merchantCode) {
    problems.push(
      `tenant ${id}: live with Redsys' public test merchant ${PUBLIC_TEST_MERCHANT.merchantCode}: set the merchant's own code (\`${fix} --redsys-merchant-code ...\`) or \`--test-mode\`.`,
    );
  }
  if (key !== null && signsAsPublicTestKey(key)) {
    problems.push(
      `tenant ${id}: live with Redsys' public test key, which anyone can sign notifications with: set the merchant's own key (\`${fix} --redsys-key-file <path>\`) or \`--test-mode\`.`,
    );
  }
  return problems;
}
