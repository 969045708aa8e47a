import { createHash, createHmac, randomBytes } from 'node:crypto';
import { ErrorCode, FieldError, type TSecondFactorPolicy } from '@portal/contract';
import type * as Otplib from 'otplib';
import type { Database, Sql } from '../../db/database.ts';
import { AppError, FieldValidationError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { createSecondFactorRepository, type CustomerAuthRow, type TotpRow } from './repository.ts';
import { hashToken, newOpaqueToken } from './tokens.ts';

/** The TOTP library, loaded when a second factor is first used rather than at start (start to ready). */
let otplib: Promise<typeof Otplib> | undefined;
const loadOtplib = (): Promise<typeof Otplib> => (otplib ??= import('otplib'));

/** How long the step between the password (or link) and the code lasts. */
export const challengeMinutes = 5;
/** Wrong codes one challenge takes before it is burnt (sign in again for another). */
export const maxChallengeFailures = 5;
/** Codes tried on one account, from any challenge, in the window: then 429 (decision 028). */
export const codeAttemptsPerAccount: readonly [number, number] = [10, 15 * 60];
/**
 * Codes tried from the profile (turning it on or off, signed in already): a budget of their own,
 * per session and per account, that the sign-in step does not read. Before session 38 they spent
 * the sign-in's: a stolen session's wrong codes kept the owner from signing in anywhere new.
 */
export const profileCodeAttempts = {
  perSession: [5, 15 * 60],
  perAccount: [10, 15 * 60],
} as const satisfies Record<string, readonly [number, number]>;
export const recoveryCodeCount = 10;

/**
 * The limiter's keys of a customer's code budgets: the sign-in step's, and the profile's of the
 * whole account (a reset clears both: auth service's `resetPassword`).
 */
export const codeBudgetKeys = (tenantId: string, customerId: string) => ({
  signIn: `2fa:acct:${tenantId}:${customerId}`,
  profile: `2fa:profile:acct:${tenantId}:${customerId}`,
});

/** What a sign-in by password or link answers when a code is still needed. */
export type Challenge = { second_factor: 'code' | 'enrol'; challenge: string };

/** A recovery code as shown: ten characters of an unambiguous alphabet, in two groups of five. */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => recoveryAlphabet[b % recoveryAlphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
/** Typed with or without the dash, in any case, with spaces around: the same code. */
const normalizeRecovery = (code: string): string => code.toLowerCase().replace(/[\s-]/g, '');
/**
 * How a recovery code is stored: an HMAC under a key of the server's secret, bound to the tenant
 * and the customer. Until session 36 it was a plain SHA-256 of a ~50-bit code, which anyone who
 * read the table could reverse by trying them all; such hashes are still accepted until spent or
 * replaced (`legacyRecoveryHash`).
 */
const recoveryHash = (key: Buffer, tenantId: string, customerId: string, code: string): Buffer =>
  createHmac('sha256', key)
    .update(`${tenantId}:${customerId}:${normalizeRecovery(code)}`)
    .digest();
const legacyRecoveryHash = (code: string): Buffer =>
  createHash('sha256').update(normalizeRecovery(code)).digest();
const sixDigits = /^\d{6}$/;
const recoveryShape = /^[a-z0-9]{10}$/;

/**
 * The second factor (issue 24): TOTP codes from an authenticator app (otplib, RFC 6238, 30 s
 * steps, one step of drift either way), and ten single-use recovery codes. A code is accepted once
 * (its time step must be newer than the last one accepted). Guessing is bounded twice: a challenge
 * is burnt after 5 wrong codes, and an account takes 10 codes per 15 minutes whatever the
 * challenge (429). Decision 028.
 */
export function createSecondFactor({
  db,
  secretBox,
  limiter,
  limitScale = 1,
  recoveryKey,
}: {
  db: Database;
  secretBox: SecretBox;
  limiter: RateLimiter;
  limitScale?: number;
  /** The key recovery codes are stored under (`deriveKey(root, 'recovery-code')`). */
  recoveryKey: Buffer;
}) {
  const repository = createSecondFactorRepository();
  const box = (tenantId: string) => ({ tenantId, field: 'totp_secret' as const });

  /** The time step of a right code newer than the last accepted, or undefined. */
  async function acceptedStep(
    tenantId: string,
    totp: TotpRow,
    code: string,
  ): Promise<number | undefined> {
    if (!sixDigits.test(code)) return undefined;
    const secret = secretBox.open(totp.secret, box(tenantId));
    const result = await (await loadOtplib()).verify({ secret, token: code, epochTolerance: 30 });
    if (!result.valid || !('timeStep' in result)) return undefined;
    return result.timeStep > Number(totp.last_step) ? result.timeStep : undefined;
  }

  /** A new pending secret for the customer, and what the authenticator app needs. */
  async function newSecret(sql: Sql, tenantId: string, customer: CustomerAuthRow, issuer: string) {
    const { generateSecret, generateURI } = await loadOtplib();
    const secret = generateSecret();
    const saved = await repository.savePendingTotp(
      sql,
      customer.id,
      secretBox.seal(secret, box(tenantId)),
    );
    if (!saved)
      throw new AppError(409, ErrorCode.conflict, 'The second factor is already turned on');
    return { secret, uri: generateURI({ issuer, label: customer.email, secret }) };
  }

  /** Ten new recovery codes: stored hashed, answered once. */
  async function newRecoveryCodes(
    sql: Sql,
    tenantId: string,
    customerId: string,
  ): Promise<string[]> {
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
    await repository.replaceRecoveryCodes(
      sql,
      customerId,
      codes.map((code) => recoveryHash(recoveryKey, tenantId, customerId, code)),
    );
    return codes;
  }

  async function spend(key: string, [limit, window]: readonly [number, number]) {
    const verdict = await limiter.hit(key, limit * limitScale, window);
    if (!verdict.allowed)
      throw new AppError(429, ErrorCode.rateLimited, 'Too many attempts', {
        'retry-after': String(verdict.retryAfterSeconds),
      });
  }

  /** A code of the sign-in step. */
  const throttle = (tenantId: string, customerId: string) =>
    spend(codeBudgetKeys(tenantId, customerId).signIn, codeAttemptsPerAccount);

  /** A code from the profile: the session's budget, then the account's profile budget. */
  async function throttleProfile(who: { tenantId: string; customerId: string; sessionId: string }) {
    await spend(
      `2fa:profile:sess:${who.tenantId}:${who.sessionId}`,
      profileCodeAttempts.perSession,
    );
    await spend(
      codeBudgetKeys(who.tenantId, who.customerId).profile,
      profileCodeAttempts.perAccount,
    );
  }

  /**
   * Checks a code of the customer inside `sql`'s transaction: a TOTP code (against the confirmed
   * secret, or the pending one when `confirming`), or, with a confirmed secret, a recovery code.
   * Answers what was accepted; the caller commits.
   */
  async function check(
    sql: Sql,
    tenantId: string,
    customerId: string,
    code: string,
    confirming: boolean,
  ): Promise<'totp' | 'recovery' | 'wrong'> {
    const totp = await repository.findTotp(sql, customerId);
    if (!totp || (!totp.confirmed_at && !confirming)) return 'wrong';
    const step = await acceptedStep(tenantId, totp, code.trim());
    if (step !== undefined) {
      await repository.acceptStep(sql, customerId, step, confirming);
      return 'totp';
    }
    const recovery = normalizeRecovery(code);
    if (totp.confirmed_at && recoveryShape.test(recovery)) {
      const hashes = [
        recoveryHash(recoveryKey, tenantId, customerId, recovery),
        legacyRecoveryHash(recovery),
      ];
      if (await repository.spendRecoveryCode(sql, customerId, hashes)) return 'recovery';
    }
    return 'wrong';
  }

  const wrongCode = () => new FieldValidationError({ code: [FieldError.invalidCode] });
  const challengeGone = () =>
    new AppError(400, ErrorCode.challengeExpired, 'Sign in again: this step has expired');

  return {
    /** Whether a sign-in by password or link needs a code (`code`), an enrolment, or nothing. */
    async stepFor(
      tenantId: string,
      policy: TSecondFactorPolicy,
      customerId: string,
    ): Promise<Challenge['second_factor'] | null> {
      if (policy === 'off') return null;
      const totp = await db.withTenant(tenantId, (sql) => repository.findTotp(sql, customerId));
      if (totp?.confirmed_at) return 'code';
      return policy === 'required' ? 'enrol' : null;
    },

    async challenge(
      tenantId: string,
      customerId: string,
      kind: Challenge['second_factor'],
      how: { method: 'password' | 'link'; remember: boolean; next: string },
    ): Promise<Challenge> {
      const token = newOpaqueToken();
      await db.withTenant(tenantId, (sql) =>
        repository.insertChallenge(sql, {
          customerId,
          tokenHash: hashToken(token),
          method: how.method,
          remember: how.remember,
          nextPath: how.next,
          expiresAt: new Date(Date.now() + challengeMinutes * 60_000),
        }),
      );
      return { second_factor: kind, challenge: token };
    },

    /** Required by the tenant, not set up yet: a secret for the app, during the sign-in. */
    async enrolDuringSignIn(
      tenantId: string,
      token: string,
      issuer: string,
      findCustomer: (sql: Sql, id: string) => Promise<CustomerAuthRow | undefined>,
    ) {
      return db.withTenant(tenantId, async (sql) => {
        const row = await repository.findChallengeForUpdate(sql, hashToken(token));
        if (!row || row.used_at) throw challengeGone();
        if (row.expires_at.getTime() <= Date.now() || row.failures >= maxChallengeFailures)
          throw challengeGone();
        const customer = await findCustomer(sql, row.customer_id);
        if (!customer) throw challengeGone();
        return newSecret(sql, tenantId, customer, issuer);
      });
    },

    /**
     * The code after the password or link. Right: the challenge is spent and the caller opens the
     * session (the first code of an enrolment also confirms it and answers the recovery codes).
     * Wrong: counted, and the challenge burnt after `maxChallengeFailures`.
     */
    async complete(tenantId: string, token: string, code: string) {
      const found = await db.withTenant(tenantId, (sql) =>
        repository.findChallengeForUpdate(sql, hashToken(token)),
      );
      if (!found || found.used_at) throw challengeGone();
      await throttle(tenantId, found.customer_id);
      const outcome = await db.withTenant(tenantId, async (sql) => {
        const row = await repository.findChallengeForUpdate(sql, hashToken(token));
        if (!row || row.used_at) return { kind: 'gone' as const };
        if (row.expires_at.getTime() <= Date.now() || row.failures >= maxChallengeFailures)
          return { kind: 'gone' as const };
        const totp = await repository.findTotp(sql, row.customer_id);
        const enrolling = Boolean(totp && !totp.confirmed_at);
        const verdict = await check(sql, tenantId, row.customer_id, code, enrolling);
        if (verdict === 'wrong') {
          await repository.countChallengeFailure(sql, row.id);
          return { kind: 'wrong' as const };
        }
        await repository.spendChallenge(sql, row.id);
        const recoveryCodes = enrolling
          ? await newRecoveryCodes(sql, tenantId, row.customer_id)
          : undefined;
        return { kind: 'ok' as const, row, recoveryCodes };
      });
      if (outcome.kind === 'gone') throw challengeGone();
      if (outcome.kind === 'wrong') throw wrongCode();
      return outcome;
    },

    /** The profile: whether it is on, and how many recovery codes are left. */
    async status(tenantId: string, customerId: string) {
      return db.withTenant(tenantId, async (sql) => {
        const totp = await repository.findTotp(sql, customerId);
        return {
          enabled: Boolean(totp?.confirmed_at),
          recovery_codes_left: totp?.confirmed_at
            ? await repository.countRecoveryCodesLeft(sql, customerId)
            : 0,
        };
      });
    },

    /** The profile: a secret for the app, pending until `confirm`. */
    async setup(tenantId: string, customer: CustomerAuthRow, issuer: string) {
      return db.withTenant(tenantId, (sql) => newSecret(sql, tenantId, customer, issuer));
    },

    /** The profile: the first code from the app turns it on; answers the recovery codes, once. */
    async confirm(
      who: { tenantId: string; customerId: string; sessionId: string },
      code: string,
    ): Promise<string[]> {
      const { tenantId, customerId } = who;
      await throttleProfile(who);
      const codes = await db.withTenant(tenantId, async (sql) => {
        const totp = await repository.findTotp(sql, customerId);
        if (!totp || totp.confirmed_at) return undefined;
        const verdict = await check(sql, tenantId, customerId, code, true);
        return verdict === 'totp' ? newRecoveryCodes(sql, tenantId, customerId) : undefined;
      });
      if (!codes) throw wrongCode();
      return codes;
    },

    /** The profile: a current code (or a recovery code) turns it off, unless the tenant requires it. */
    async disable(
      who: { tenantId: string; customerId: string; sessionId: string },
      code: string,
      policy: TSecondFactorPolicy,
    ): Promise<void> {
      const { tenantId, customerId } = who;
      if (policy === 'required')
        throw new AppError(409, ErrorCode.secondFactorRequired, 'This portal requires it');
      await throttleProfile(who);
      const ok = await db.withTenant(tenantId, async (sql) => {
        const verdict = await check(sql, tenantId, customerId, code, false);
        if (verdict === 'wrong') return false;
        await repository.deleteTotp(sql, customerId);
        return true;
      });
      if (!ok) throw wrongCode();
    },
  };
}
export type SecondFactor = ReturnType<typeof createSecondFactor>;
