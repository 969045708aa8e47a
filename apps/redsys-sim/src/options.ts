import type { FastifyServerOptions } from 'fastify';
import { PUBLIC_TEST_MERCHANT } from '@portal/redsys';
import type { SignatureVersion } from '@portal/redsys';

/** A merchant terminal the simulator accepts requests from and signs answers for. */
export type SimulatorMerchant = {
  merchantCode: string;
  /** Compared numerically with the request's: "1" matches "001". */
  terminal: string;
  secretKey: string;
  allowedVersions: readonly SignatureVersion[];
  /** Shown on the pages when the request carries no Ds_Merchant_MerchantName. */
  name?: string;
};

export type SimulatorOptions = {
  /** Default: Redsys' public test merchant 999008881 / terminal 1, both signature versions. */
  merchants?: readonly SimulatorMerchant[];
  /** Base URL of the simulator's own pages as the browser sees it; '' keeps links relative. */
  publicUrl?: string;
  /** Adds the test-only /__sim/ endpoints (server.ts: REDSYS_SIM_INSPECT=true). */
  inspect?: boolean;
  /**
   * References starting with this prefix are treated as a saved authorised VISA test card
   * (4548812049400004), so cards the portal's demo seed invented can be paid with. Off by default.
   */
  demoReferencePrefix?: string;
  /** Attempts per notification (default 3), the pause between them, and each one's timeout. */
  notificationAttempts?: number;
  notificationRetryDelayMs?: number;
  notificationTimeoutMs?: number;
  /** How long a card page stays usable (default 30 minutes, like a Redsys session). */
  sessionTtlMs?: number;
  logger?: FastifyServerOptions['logger'];
  /** Clock for Ds_Date/Ds_Hour and card expiry (tests). */
  now?: () => Date;
};

export type ResolvedOptions = Required<Omit<SimulatorOptions, 'demoReferencePrefix' | 'logger'>> &
  Pick<SimulatorOptions, 'demoReferencePrefix'>;

export const DEFAULT_MERCHANT: SimulatorMerchant = {
  merchantCode: PUBLIC_TEST_MERCHANT.merchantCode,
  terminal: PUBLIC_TEST_MERCHANT.terminal,
  secretKey: PUBLIC_TEST_MERCHANT.secretKey,
  allowedVersions: PUBLIC_TEST_MERCHANT.allowedVersions,
  name: 'Comercio de pruebas',
};

export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  return {
    merchants: options.merchants ?? [DEFAULT_MERCHANT],
    publicUrl: (options.publicUrl ?? '').replace(/\/+$/, ''),
    inspect: options.inspect ?? false,
    demoReferencePrefix: options.demoReferencePrefix,
    notificationAttempts: Math.max(1, options.notificationAttempts ?? 3),
    notificationRetryDelayMs: options.notificationRetryDelayMs ?? 500,
    notificationTimeoutMs: options.notificationTimeoutMs ?? 5_000,
    sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    now: options.now ?? (() => new Date()),
  };
}
