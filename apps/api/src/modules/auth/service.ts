import { randomUUID } from 'node:crypto';
import {
  emailChangeHours,
  ErrorCode,
  stepUpMinutes,
  FieldError,
  type TAuthUser,
  type TSecondFactorPolicy,
  type TSignInMethod,
} from '@portal/contract';
import type { Database } from '../../db/database.ts';
import { AppError, FieldValidationError } from '../../lib/app-error.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import type { Revocations } from './revocations.ts';
import { newPasswordProblems } from './common-passwords.ts';
import {
  hashPassword,
  needsRehash,
  passwordAdmission,
  verifyPassword,
  type Admission,
} from './passwords.ts';
import type { VerifiedPerson } from './oidc.ts';
import {
  createAuthRepository,
  createPasskeyRepository,
  createSecondFactorRepository,
  type CustomerAuthRow,
} from './repository.ts';
import { webhookEvents } from '../webhooks/events.ts';
import { hashToken, newOpaqueToken, type AccessTokens } from './tokens.ts';
import { describeDevice, networkOf, type DeviceDescription } from './device.ts';
import { limitAddress } from '../../lib/limit-address.ts';
import { codeBudgetKeys, type Challenge, type SecondFactor } from './second-factor.ts';

export const persistentSessionDays = 30;
/** A browser-session sign-in still ends on the server after this long without a refresh. */
const sessionHours = 12;
const resetTokenMinutes = 60;
/**
 * A password reset turns off a second factor turned on less than this long ago (a thief's, turned
 * on with the password they used, would keep the owner out after the reset too); the "turned on"
 * e-mail tells the owner so.
 */
export const recentSecondFactorHours = 72;
/** A sign-in link asked for from the sign-in screen works this long, once (decision 027). */
export const signInLinkMinutes = 15;

/**
 * Limits: [count, window seconds]. Sign-in attempts are refused per IP and per account+IP only:
 * someone who knows a customer's e-mail must not be able to keep the customer out.
 */
export const limits = {
  loginPerIp: [30, 60],
  loginPerAccountAndIp: [10, 15 * 60],
  forgotPerIp: [10, 15 * 60],
  // Beyond this an address gets no more e-mails for the hour, yet the answer is the same and the
  // links already sent keep working: someone flooding a customer's address cannot lock them out.
  forgotMailsPerAccount: [5, 60 * 60],
  resetPerIp: [20, 15 * 60],
  // Guessing the current password with a stolen access token: a handful of tries per session,
  // and a few handfuls per account. A thief's session spends its own budget, not the owner's: one
  // stolen token no longer keeps the owner from changing the password that locks the thief out.
  changePerSession: [10, 15 * 60],
  changePerAccount: [30, 15 * 60],
  // "Send me a link": like the password recovery, per IP, and a cap of e-mails per address whose
  // window is a link's life (`signInLinkMinutes`): while it refuses, every link it counted still
  // works, so a stranger asking for five cannot keep the owner's away (a window of an hour outlived
  // the 15-minute links and did, for the rest of each hour: session 39).
  signInLinkPerIp: [10, 15 * 60],
  signInLinkMailsPerAccount: [5, signInLinkMinutes * 60],
  redeemLinkPerIp: [30, 15 * 60],
  // Guessing a "was this you?" link: its 256 bits make it hopeless; this keeps the table quiet.
  endLinkPerIp: [20, 15 * 60],
  // A change of the sign-in e-mail sends two e-mails: a few an hour per account.
  emailChangePerAccount: [5, 60 * 60],
  confirmEmailPerIp: [30, 15 * 60],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * An e-mail address as the limits count it: one key for every spelling the database finds the
 * same customer by. PostgreSQL's lower() maps `İ` to `i` and a final `Σ` to `σ` (simple case
 * mapping), JavaScript's toLowerCase() to `i̇` (i + U+0307) and `ς`: `clİente@…` was a key of its
 * own for the limits while the lookup found `cliente@…`, and every `i` of an address doubled its
 * guesses, its slow-down and its caps of e-mails (session 39). Folding more spellings into one key
 * than the database does only makes a limit stricter.
 */
function limitKeyOfEmail(email: string): string {
  return email.toLowerCase().replaceAll('i\u0307', 'i').replaceAll('ς', 'σ');
}

/**
 * The account-wide limit only slows down. It counts the attempts on one account from every IP in
 * a window; past `free` of them, each IP must leave a gap between two attempts on that account,
 * growing with the count (one more second per `perSecond` attempts) up to `maxGapSeconds`. The
 * first attempt from an IP is never refused, so the owner signing in from anywhere new gets in at
 * once; after a typo they wait at most `maxGapSeconds`. A successful reset clears the count.
 */
export const accountSlowdown = {
  windowSeconds: 15 * 60,
  free: 20,
  perSecond: 20,
  maxGapSeconds: 5,
} as const;

/** Seconds an IP must wait between two attempts on an account tried `count` times (0: none). */
export function accountGapSeconds(count: number, scale = 1): number {
  const over = count - accountSlowdown.free * scale;
  if (over <= 0) return 0;
  return Math.min(accountSlowdown.maxGapSeconds, Math.ceil(over / accountSlowdown.perSecond));
}

export type Session = {
  accessToken: string;
  refreshToken: string;
  persistent: boolean;
  user: TAuthUser;
};

/** Where a sign-in comes from: how, and what the request says of the browser. */
export type SignInOrigin = {
  method: TSignInMethod;
  userAgent: string | undefined;
  ip: string;
  /** The browser's random device cookie (cookies.ts): a new one for a browser never seen. */
  deviceId: string;
  /** The passkey that signed in (removing it ends the session). */
  passkeyId?: string;
};

const toUser = (c: CustomerAuthRow): TAuthUser => ({
  id: c.id,
  code: c.code,
  name: [c.name, c.last_name].filter(Boolean).join(' '),
  email: c.email,
});

const uuidShape = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;

const tooMany = (retryAfterSeconds: number) =>
  new AppError(429, ErrorCode.rateLimited, 'Too many attempts', {
    'retry-after': String(retryAfterSeconds),
  });

export type AuthServiceDeps = {
  db: Database;
  tokens: AccessTokens;
  limiter: RateLimiter;
  /** Ended sessions: told of every family a logout, a reset or a replayed refresh token ends. */
  revocations: Revocations;
  sendResetMail: (input: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
  }) => Promise<void>;
  /** "Your password was changed" (changed-mail.ts); sent after the change, not awaited. */
  sendPasswordChangedMail?: (input: {
    tenantId: string;
    customer: CustomerAuthRow;
    at: Date;
  }) => Promise<void>;
  /** The e-mail with a sign-in link (sign-in-link-mail.ts). */
  sendSignInLinkMail?: (input: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
    minutes: number;
  }) => Promise<void>;
  /** The confirmation link to a new sign-in e-mail and the notice to the current one. */
  sendEmailChangeMails?: (input: {
    tenantId: string;
    customer: CustomerAuthRow;
    newEmail: string;
    token: string;
    hours: number;
    at: Date;
  }) => Promise<void>;
  /** "Was this you?": a sign-in from a browser the customer never used (new-device-mail.ts). */
  sendNewDeviceMail?: (input: {
    tenantId: string;
    customer: CustomerAuthRow;
    token: string;
    device: DeviceDescription;
    network: string;
    at: Date;
  }) => Promise<void>;
  onBackgroundError: (error: unknown) => void;
  /** The second factor (second-factor.ts), asked after the password or the link. */
  secondFactor?: SecondFactor;
  /** Multiplies every account limit: end-to-end suites sign in many times from one address. */
  limitScale?: number;
  /** Admission control of password hashing (the process-wide gate unless a test gives one). */
  passwordGate?: Admission;
};

export function createAuthService({
  db,
  tokens,
  limiter,
  revocations,
  sendResetMail,
  sendPasswordChangedMail,
  sendNewDeviceMail,
  sendSignInLinkMail,
  sendEmailChangeMails,
  secondFactor,
  onBackgroundError,
  limitScale,
  passwordGate = passwordAdmission,
}: AuthServiceDeps) {
  const repository = createAuthRepository();
  const passkeyRepository = createPasskeyRepository();

  async function enforce(key: string, [limit, window]: readonly [number, number]) {
    const verdict = await limiter.hit(key, limit * (limitScale ?? 1), window);
    if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
  }

  /**
   * The owner, proved: the current password (a budget of guesses per session, and a larger one per
   * account, shared by every change that asks for it); or, where `accepts` allows it, for a customer who has no password
   * (signs in by link, Google, Apple or Microsoft), a sign-in of this session within
   * `stepUpMinutes`. Otherwise 403 `reauthentication_required`: sign in again.
   */
  async function proveOwner(
    who: { tenantId: string; customerId: string; sessionId: string },
    currentPassword: string,
    accepts: 'password' | 'password or recent sign-in',
  ): Promise<CustomerAuthRow> {
    const { tenantId, customerId, sessionId } = who;
    await enforce(`change:sess:${tenantId}:${sessionId}`, limits.changePerSession);
    await enforce(`change:acct:${tenantId}:${customerId}`, limits.changePerAccount);
    const found = await db.withTenant(tenantId, async (sql) => {
      const customer = await repository.findCustomerById(sql, customerId);
      const recent =
        customer !== undefined &&
        !customer.password_hash &&
        (await repository.signedInWithin(sql, customerId, sessionId, stepUpMinutes));
      return { customer, recent };
    });
    const { customer } = found;
    if (!customer) throw new AppError(401, ErrorCode.unauthorized, 'Not signed in');
    if (customer.password_hash || accepts === 'password') {
      const ok = await passwordGate.run(
        () => verifyPassword(customer.password_hash, currentPassword),
        tenantId,
      );
      if (!ok) throw new FieldValidationError({ current_password: [FieldError.wrongPassword] });
      return customer;
    }
    if (!found.recent)
      throw new AppError(
        403,
        ErrorCode.reauthenticationRequired,
        `Sign in again (within ${stepUpMinutes} minutes) to make this change`,
      );
    return customer;
  }

  function expiry(persistent: boolean): Date {
    const ms = persistent ? persistentSessionDays * 86_400_000 : sessionHours * 3_600_000;
    return new Date(Date.now() + ms);
  }

  /**
   * Opens a session (a new refresh-token family) for a customer who proved who they are, and
   * describes it for "Your devices". The first sign-in from a browser the customer never used,
   * when they signed in before from another, e-mails a "was this you?" link that ends it.
   */
  async function openSession(
    tenantId: string,
    customer: CustomerAuthRow,
    persistent: boolean,
    origin: SignInOrigin,
  ): Promise<Session> {
    const refreshToken = newOpaqueToken();
    const familyId = randomUUID();
    const device = describeDevice(origin.userAgent);
    const network = networkOf(origin.ip);
    const deviceHash = hashToken(origin.deviceId);
    const endToken = await db.withTenant(tenantId, async (sql) => {
      // The password that proved the customer is still theirs, and stays so until this session
      // is saved: a reset or change committed since (its "every session ends" ran before this
      // one existed) refuses it; one that comes after waits for it, and then ends it.
      if ((await repository.lockPasswordHash(sql, customer.id)) !== customer.password_hash)
        throw new AppError(401, ErrorCode.invalidCredentials, 'Sign in again');
      // So is the passkey that proved them: one removed since its check refuses the session; a
      // removal that comes after waits for it, and then ends it (revokeSessionsOfPasskey).
      if (
        origin.passkeyId &&
        !(await passkeyRepository.lockPasskey(sql, customer.id, origin.passkeyId))
      )
        throw new AppError(401, ErrorCode.invalidCredentials, 'Sign in again');
      const seen = await repository.devicesSeen(sql, customer.id, deviceHash);
      const endToken = seen.any && !seen.this ? newOpaqueToken() : undefined;
      await repository.insertSession(sql, {
        id: familyId,
        customerId: customer.id,
        method: origin.method,
        browser: device.browser,
        os: device.os,
        deviceType: device.device_type,
        network,
        deviceHash,
        endTokenHash: endToken ? hashToken(endToken) : null,
        passkeyId: origin.passkeyId ?? null,
      });
      await repository.insertRefresh(sql, {
        familyId,
        customerId: customer.id,
        tokenHash: hashToken(refreshToken),
        persistent,
        expiresAt: expiry(persistent),
      });
      return endToken;
    });
    if (endToken && sendNewDeviceMail) {
      const at = new Date();
      sendNewDeviceMail({ tenantId, customer, token: endToken, device, network, at }).catch(
        onBackgroundError,
      );
    }
    const accessToken = await tokens.sign({
      customerId: customer.id,
      tenantId,
      sessionId: familyId,
    });
    return { accessToken, refreshToken, persistent, user: toUser(customer) };
  }

  return {
    openSession,

    /**
     * Signs in the person an OpenID provider vouched for: by a linked identity (issuer, subject),
     * or on first use by a verified e-mail that belongs to a customer, which links it.
     */
    async signInExternal(
      tenantId: string,
      person: VerifiedPerson,
      provider: string,
      remember: boolean,
      origin: Omit<SignInOrigin, 'method'>,
      /** The tenant's second-factor policy: with it off, no code is asked of anyone. */
      policy: TSecondFactorPolicy = 'off',
    ) {
      const customer = await db.withTenant(tenantId, async (sql) => {
        const linked = await repository.findIdentity(sql, person.issuer, person.subject);
        if (linked) return repository.findCustomerById(sql, linked);
        if (!person.email || !person.emailVerified) return undefined;
        const byEmail = await repository.findCustomerByEmail(sql, person.email);
        // A provider account for the customer's address proves control of the mailbox, no more:
        // where the customer turned the second factor on, that must not open the account without
        // the code (a reset or a sign-in link asks for it too), nor link for later sign-ins.
        if (
          byEmail &&
          policy !== 'off' &&
          (await createSecondFactorRepository().findTotp(sql, byEmail.id))?.confirmed_at
        )
          return 'needs_second_factor' as const;
        if (byEmail) {
          await repository.linkIdentity(sql, {
            issuer: person.issuer,
            subject: person.subject,
            customerId: byEmail.id,
            provider,
          });
        }
        return byEmail;
      });
      if (customer === 'needs_second_factor')
        throw new AppError(
          403,
          ErrorCode.externalNeedsSecondFactor,
          'Two-step verification is on: sign in with the password and the code',
        );
      if (!customer)
        throw new AppError(404, ErrorCode.noAccount, 'No customer account for this person');
      return openSession(tenantId, customer, remember, { ...origin, method: 'external' });
    },

    async login(
      tenantId: string,
      input: { email: string; password: string; remember?: boolean },
      origin: Omit<SignInOrigin, 'method'>,
      policy: TSecondFactorPolicy = 'off',
    ): Promise<Session | Challenge> {
      const { ip } = origin;
      const email = limitKeyOfEmail(input.email);
      await enforce(`login:ip:${tenantId}:${limitAddress(ip)}`, limits.loginPerIp);
      await enforce(
        `login:pair:${tenantId}:${email}:${limitAddress(ip)}`,
        limits.loginPerAccountAndIp,
      );
      const { count } = await limiter.hit(
        `login:acct:${tenantId}:${email}`,
        Number.MAX_SAFE_INTEGER,
        accountSlowdown.windowSeconds,
      );
      const gap = accountGapSeconds(count, limitScale);
      if (gap > 0) {
        const verdict = await limiter.hit(
          `login:gap:${tenantId}:${email}:${limitAddress(ip)}`,
          1,
          gap,
        );
        if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
      }
      // The lookup and the hashing wait for a slot of the password gate: a burst of sign-ins gets
      // 503s instead of a queue without end. Known or unknown e-mail, the same path.
      const customer = await passwordGate.run(async () => {
        const found = await db.withTenant(tenantId, (sql) =>
          // The address as typed: PostgreSQL lower-cases it (JavaScript lower-cases `İ` otherwise).
          repository.findCustomerByEmail(sql, input.email),
        );
        // Unknown e-mail and wrong password: same work (a dummy verification), same answer.
        const ok = await verifyPassword(found?.password_hash, input.password);
        if (!found || !ok) return undefined;
        if (found.password_hash && needsRehash(found.password_hash)) {
          const { password_hash: checked } = found;
          const rehashed = await hashPassword(input.password);
          const written = await db.withTenant(tenantId, (sql) =>
            repository.rehashPassword(sql, found.id, checked, rehashed),
          );
          return written ? { ...found, password_hash: rehashed } : found;
        }
        return found;
      }, tenantId);
      if (!customer) throw new AppError(401, ErrorCode.invalidCredentials, 'Invalid credentials');
      await limiter.reset(`login:pair:${tenantId}:${email}:${limitAddress(ip)}`);
      const step = await secondFactor?.stepFor(tenantId, policy, customer.id);
      if (step && secondFactor)
        return secondFactor.challenge(tenantId, customer.id, step, {
          method: 'password',
          remember: input.remember === true,
          next: '',
        });
      return openSession(tenantId, customer, input.remember === true, {
        ...origin,
        method: 'password',
      });
    },

    /**
     * Rotates a refresh token. A token that was already rotated (or revoked) is a stolen copy or a
     * replay: its whole family is revoked, so the thief's and the victim's sessions both end.
     */
    async refresh(tenantId: string, refreshToken: string | undefined): Promise<Session> {
      const unauthorized = new AppError(401, ErrorCode.unauthorized, 'Not signed in');
      if (!refreshToken || refreshToken.length > 200) throw unauthorized;
      const outcome = await db.withTenant(tenantId, async (sql) => {
        const row = await repository.findRefreshForUpdate(sql, hashToken(refreshToken));
        if (!row || row.revoked_at) return { kind: 'invalid' as const };
        // The session was ended while this token's predecessor was being rotated: the ending
        // chose its rows before this one was saved, and revoked only the predecessor. A session
        // with any revoked token is ended (read after the lock: this statement sees the ending).
        if (await repository.isFamilyRevoked(sql, row.family_id)) {
          await repository.revokeFamily(sql, row.family_id);
          return { kind: 'reused' as const, familyId: row.family_id };
        }
        // Rotated moments ago: the page that asked never stored the successor (it was closed or
        // left mid-flight). It gets another successor in the same family; after that short
        // window the old token is a stolen copy.
        if (row.rotated_at && !row.rotated_recently) {
          await repository.revokeFamily(sql, row.family_id);
          return { kind: 'reused' as const, familyId: row.family_id };
        }
        if (row.expires_at.getTime() <= Date.now()) return { kind: 'invalid' as const };
        const customer = await repository.findCustomerById(sql, row.customer_id);
        if (!customer) return { kind: 'invalid' as const };
        const next = newOpaqueToken();
        if (!row.rotated_at) await repository.markRotated(sql, row.id);
        await repository.touchSession(sql, row.family_id);
        await repository.insertRefresh(sql, {
          familyId: row.family_id,
          customerId: row.customer_id,
          tokenHash: hashToken(next),
          persistent: row.persistent,
          expiresAt: expiry(row.persistent),
        });
        return {
          kind: 'ok' as const,
          customer,
          next,
          persistent: row.persistent,
          familyId: row.family_id,
        };
      });
      if (outcome.kind === 'reused') await revocations.revoked(tenantId, [outcome.familyId]);
      if (outcome.kind !== 'ok') throw unauthorized;
      const accessToken = await tokens.sign({
        customerId: outcome.customer.id,
        tenantId,
        sessionId: outcome.familyId,
      });
      return {
        accessToken,
        refreshToken: outcome.next,
        persistent: outcome.persistent,
        user: toUser(outcome.customer),
      };
    },

    /** "Your devices": the customer's open sessions, the one asking marked. */
    async listSessions(who: { tenantId: string; customerId: string; sessionId: string }) {
      const rows = await db.withTenant(who.tenantId, (sql) =>
        repository.listOpenSessions(sql, who.customerId),
      );
      return rows.map((row) => ({
        id: row.id,
        current: row.id === who.sessionId,
        method: row.method,
        browser: row.browser,
        os: row.os,
        device_type: row.device_type,
        network: row.network,
        created_at: row.created_at.toISOString(),
        last_used_at: row.last_used_at.toISOString(),
      }));
    },

    /** Ends one of the customer's sessions; its access tokens are refused at once. */
    async endSession(who: { tenantId: string; customerId: string }, id: string): Promise<number> {
      const ended =
        uuidShape.test(id) &&
        (await db.withTenant(who.tenantId, async (sql) => {
          const done = await repository.revokeSessionOfCustomer(sql, who.customerId, id);
          if (done) await repository.spendEmailChangesFrom(sql, [id]);
          return done;
        }));
      // Another customer's session, or one already ended: the same 404 as every unknown id.
      if (!ended) throw new AppError(404, ErrorCode.notFound, 'No such session');
      await revocations.revoked(who.tenantId, [id]);
      return 1;
    },

    /** Ends every session of the customer but the one asking. */
    async endOtherSessions(who: {
      tenantId: string;
      customerId: string;
      sessionId: string;
    }): Promise<number> {
      const ended = await db.withTenant(who.tenantId, async (sql) => {
        const families = await repository.revokeOthersOfCustomer(
          sql,
          who.customerId,
          who.sessionId,
        );
        await repository.spendEmailChangesFrom(sql, families);
        return families;
      });
      await revocations.revoked(who.tenantId, ended);
      return ended.length;
    },

    /**
     * The "was this you?" link: ends the session it was sent for, without signing anyone in. The
     * link works once; an unknown or spent one gets the same field error as a bad reset link.
     */
    async endSessionByLink(tenantId: string, token: string, ip: string): Promise<number> {
      await enforce(`endlink:ip:${tenantId}:${limitAddress(ip)}`, limits.endLinkPerIp);
      const outcome = await db.withTenant(tenantId, async (sql) => {
        const session = await repository.spendEndToken(sql, hashToken(token));
        if (!session) return undefined;
        const ended = await repository.revokeSessionOfCustomer(
          sql,
          session.customer_id,
          session.id,
        );
        await repository.spendEmailChangesFrom(sql, [session.id]);
        return { id: session.id, ended };
      });
      if (!outcome) throw new FieldValidationError({ token: [FieldError.invalidToken] });
      if (outcome.ended) await revocations.revoked(tenantId, [outcome.id]);
      return outcome.ended ? 1 : 0;
    },

    /** Ends the session: its refresh tokens and, at once, every access token issued for it. */
    async logout(tenantId: string, refreshToken: string | undefined): Promise<void> {
      if (!refreshToken || refreshToken.length > 200) return;
      const familyId = await db.withTenant(tenantId, async (sql) => {
        const row = await repository.findRefreshForUpdate(sql, hashToken(refreshToken));
        if (row) await repository.revokeFamily(sql, row.family_id);
        return row?.family_id;
      });
      // Also when the family was already revoked: a retried logout completes what failed before.
      if (familyId) await revocations.revoked(tenantId, [familyId]);
    },

    /**
     * Answers at once, the same for any address; the lookup and the e-mail happen afterwards, so
     * neither the answer nor its timing tells whether the address belongs to a customer.
     */
    async forgotPassword(tenantId: string, rawEmail: string, ip: string): Promise<void> {
      const email = limitKeyOfEmail(rawEmail);
      await enforce(`forgot:ip:${tenantId}:${limitAddress(ip)}`, limits.forgotPerIp);
      setImmediate(() => {
        void (async () => {
          const [limit, window] = limits.forgotMailsPerAccount;
          const verdict = await limiter.hit(`forgot:acct:${tenantId}:${email}`, limit, window);
          if (!verdict.allowed) return;
          const customer = await db.withTenant(tenantId, (sql) =>
            repository.findCustomerByEmail(sql, rawEmail),
          );
          if (!customer) return;
          const token = newOpaqueToken();
          await db.withTenant(tenantId, (sql) =>
            repository.insertReset(sql, {
              customerId: customer.id,
              email: customer.email,
              tokenHash: hashToken(token),
              expiresAt: new Date(Date.now() + resetTokenMinutes * 60_000),
            }),
          );
          await sendResetMail({ tenantId, customer, token });
        })().catch(onBackgroundError);
      });
    },

    /**
     * "Send me a link" (issue 24). Like the password recovery: the same answer at once for any
     * address; the lookup and the e-mail happen afterwards, capped per address, so that neither
     * the answer nor its timing tells whether the address is a customer's.
     */
    async requestSignInLink(
      tenantId: string,
      input: { email: string; remember?: boolean; next?: string },
      ip: string,
    ): Promise<void> {
      const email = limitKeyOfEmail(input.email);
      await enforce(`link:ip:${tenantId}:${limitAddress(ip)}`, limits.signInLinkPerIp);
      setImmediate(() => {
        void (async () => {
          const [limit, window] = limits.signInLinkMailsPerAccount;
          const verdict = await limiter.hit(`link:acct:${tenantId}:${email}`, limit, window);
          if (!verdict.allowed) return;
          const customer = await db.withTenant(tenantId, (sql) =>
            repository.findCustomerByEmail(sql, input.email),
          );
          if (!customer || !sendSignInLinkMail) return;
          const token = newOpaqueToken();
          await db.withTenant(tenantId, (sql) =>
            repository.insertSignInLink(sql, {
              customerId: customer.id,
              tokenHash: hashToken(token),
              nextPath: input.next ?? '',
              remember: input.remember === true,
              expiresAt: new Date(Date.now() + signInLinkMinutes * 60_000),
            }),
          );
          await sendSignInLinkMail({ tenantId, customer, token, minutes: signInLinkMinutes });
        })().catch(onBackgroundError);
      });
    },

    /**
     * Signs in with an e-mailed link: once, before it expires, on its own tenant only. A link
     * unknown here, already used or whose customer is gone is `invalid_token`; a late one says so
     * (the screen offers a new one).
     */
    async redeemSignInLink(
      tenantId: string,
      token: string,
      origin: Omit<SignInOrigin, 'method'>,
      policy: TSecondFactorPolicy = 'off',
    ): Promise<(Session | Challenge) & { next: string }> {
      await enforce(`redeem:ip:${tenantId}:${limitAddress(origin.ip)}`, limits.redeemLinkPerIp);
      const outcome = await db.withTenant(tenantId, async (sql) => {
        const row = await repository.findSignInLinkForUpdate(sql, hashToken(token));
        if (!row || row.used_at) return 'invalid' as const;
        if (row.expires_at.getTime() <= Date.now()) return 'expired' as const;
        const customer = await repository.findCustomerById(sql, row.customer_id);
        if (!customer) return 'invalid' as const;
        await repository.spendSignInLink(sql, row.id);
        return { customer, next: row.next_path, remember: row.remember };
      });
      if (outcome === 'invalid')
        throw new FieldValidationError({ token: [FieldError.invalidToken] });
      if (outcome === 'expired')
        throw new AppError(400, ErrorCode.signInLinkExpired, 'Sign-in link expired');
      const step = await secondFactor?.stepFor(tenantId, policy, outcome.customer.id);
      if (step && secondFactor) {
        const challenge = await secondFactor.challenge(tenantId, outcome.customer.id, step, {
          method: 'link',
          remember: outcome.remember,
          next: outcome.next,
        });
        return { ...challenge, next: outcome.next };
      }
      const session = await openSession(tenantId, outcome.customer, outcome.remember, {
        ...origin,
        method: 'link',
      });
      return { ...session, next: outcome.next };
    },

    /**
     * The second step of a sign-in by password or link: the code opens the session the first step
     * described (how, remember-me, where to go).
     */
    async completeSecondFactor(
      tenantId: string,
      input: { challenge: string; code: string },
      origin: Omit<SignInOrigin, 'method'>,
    ): Promise<Session & { next: string; recoveryCodes?: string[] }> {
      if (!secondFactor) throw new AppError(404, ErrorCode.notFound, 'Not found');
      const { row, recoveryCodes } = await secondFactor.complete(
        tenantId,
        input.challenge,
        input.code,
      );
      const customer = await db.withTenant(tenantId, (sql) =>
        repository.findCustomerById(sql, row.customer_id),
      );
      if (!customer)
        throw new AppError(400, ErrorCode.challengeExpired, 'Sign in again: this step has expired');
      // Checked against the password as the challenge was spent: a reset committed since (its
      // "every session ends" ran before this session existed) refuses it.
      const session = await openSession(
        tenantId,
        { ...customer, password_hash: row.password_hash },
        row.remember,
        {
          ...origin,
          method: row.method,
        },
      );
      return { ...session, next: row.next_path, ...(recoveryCodes ? { recoveryCodes } : {}) };
    },

    /** During a sign-in the tenant requires a second factor for: the secret for the app. */
    async enrolDuringSignIn(tenantId: string, challenge: string, issuer: string) {
      if (!secondFactor) throw new AppError(404, ErrorCode.notFound, 'Not found');
      return secondFactor.enrolDuringSignIn(tenantId, challenge, issuer, (sql, id) =>
        repository.findCustomerById(sql, id),
      );
    },

    /** A passkey proved who it is (passkeys.ts): no second code, a passkey is two factors. */
    async signInWithPasskey(
      tenantId: string,
      by: { customerId: string; passkeyId: string },
      remember: boolean,
      origin: Omit<SignInOrigin, 'method' | 'passkeyId'>,
    ): Promise<Session> {
      const customer = await db.withTenant(tenantId, (sql) =>
        repository.findCustomerById(sql, by.customerId),
      );
      if (!customer) throw new AppError(401, ErrorCode.invalidCredentials, 'Passkey not accepted');
      return openSession(tenantId, customer, remember, {
        ...origin,
        method: 'passkey',
        passkeyId: by.passkeyId,
      });
    },

    /**
     * Removes one of the customer's passkeys, and ends the sessions it opened but the one asking
     * (a lost phone's passkey removed from another device signs the phone out too).
     */
    async removePasskey(
      who: { tenantId: string; customerId: string; sessionId: string },
      id: string,
    ): Promise<void> {
      const ended = await db.withTenant(who.tenantId, async (sql) => {
        if (!(await passkeyRepository.remove(sql, who.customerId, id))) return null;
        const families = await repository.revokeSessionsOfPasskey(
          sql,
          who.customerId,
          id,
          who.sessionId,
        );
        await repository.spendEmailChangesFrom(sql, families);
        return families;
      });
      if (!ended) throw new AppError(404, ErrorCode.notFound, 'No such passkey');
      await revocations.revoked(who.tenantId, ended);
    },

    /**
     * Proof that the owner asks for a change that adds a way into the account (a passkey, the
     * second factor): the current password, or, for a customer who has none, a sign-in within
     * `stepUpMinutes`. An access token alone, stolen from a page, is never enough.
     */
    stepUp: (
      who: { tenantId: string; customerId: string; sessionId: string },
      currentPassword: string,
    ) => proveOwner(who, currentPassword, 'password or recent sign-in'),

    /** The profile's second factor, for the customer asking. */
    async findCustomer(tenantId: string, customerId: string) {
      const customer = await db.withTenant(tenantId, (sql) =>
        repository.findCustomerById(sql, customerId),
      );
      if (!customer) throw new AppError(401, ErrorCode.unauthorized, 'Not signed in');
      return customer;
    },

    /**
     * From the profile: the current password proves it is the owner (an access token alone is
     * not enough), the new one follows the reset's rules, and every other session ends at once
     * (access tokens included); this one stays signed in.
     */
    async changePassword(
      who: { tenantId: string; customerId: string; sessionId: string },
      input: { current_password: string; password: string },
      /** The tenant's company and legal names: a password must not contain them. */
      organisationNames: readonly string[],
    ): Promise<void> {
      const { tenantId, customerId, sessionId } = who;
      const customer = await proveOwner(who, input.current_password, 'password');
      const problems = await newPasswordProblems(input.password, {
        email: customer.email,
        organisationNames,
      });
      if (problems.length > 0) throw new FieldValidationError({ password: problems });
      const newHash = await passwordGate.run(() => hashPassword(input.password), tenantId);
      const ended = await db.withTenant(tenantId, async (sql) => {
        await repository.setPasswordHash(sql, customerId, newHash);
        // A reset link asked for before the change must not undo it; nor may a sign-in link, or
        // an e-mail change asked for with the old password (the notice of it tells the owner to
        // change the password: doing so must stop it).
        await repository.spendResets(sql, customerId);
        await repository.spendSignInLinksOf(sql, customerId);
        await repository.spendEmailChangesOf(sql, customerId);
        // A second-factor set-up or a passkey challenge begun with the old password is not
        // finished with an access token alone afterwards.
        await repository.endPendingSetups(sql, customerId);
        return repository.revokeOthersOfCustomer(sql, customerId, sessionId);
      });
      await revocations.revoked(tenantId, ended);
      // The owner hears of it, whoever changed it; a failed e-mail does not undo the change.
      sendPasswordChangedMail?.({ tenantId, customer, at: new Date() }).catch(onBackgroundError);
    },

    /**
     * A change of the sign-in e-mail (issue 23): the password proves it is the owner (a customer
     * who only signs in with Google, Apple or Microsoft has none to give); the new address must
     * confirm with its link before anything changes, and the current one hears of the request.
     */
    async requestEmailChange(
      who: { tenantId: string; customerId: string; sessionId: string },
      input: { email: string; current_password: string },
    ): Promise<{ email: string }> {
      const { tenantId, customerId } = who;
      const newEmail = input.email.trim();
      const customer = await proveOwner(who, input.current_password, 'password or recent sign-in');
      // Counted once the owner is proved: a stolen session's wrong passwords (counted by
      // proveOwner's own budgets) spent the owner's changes for the hour (session 39).
      await enforce(`email-change:acct:${tenantId}:${customerId}`, limits.emailChangePerAccount);
      if (newEmail.toLowerCase() === customer.email.toLowerCase())
        throw new FieldValidationError({ email: [FieldError.invalidValue] });
      const token = newOpaqueToken();
      const outcome = await db.withTenant(tenantId, async (sql) => {
        // The customer locked: two requests at once take turns (each spent the waiting ones
        // without seeing the other's, and both links moved the account), and what proved the
        // owner is checked again under the lock, as a sign-in's is: a password changed or the
        // session ended while the password was being checked spent the waiting changes before
        // this one was written, and its link moved the account anyway (session 39).
        const hash = await repository.lockCustomerForChange(sql, customerId);
        if (
          hash !== customer.password_hash ||
          (await repository.isFamilyRevoked(sql, who.sessionId))
        )
          return 'stale' as const;
        if (await repository.findCustomerByEmail(sql, newEmail)) return 'taken' as const;
        // The latest request is the one: an earlier link (a mistyped address, say) no longer
        // moves the account (before session 38 both confirmed for 24 hours).
        await repository.spendEmailChangesOf(sql, customerId);
        await repository.insertEmailChange(sql, {
          customerId,
          newEmail,
          tokenHash: hashToken(token),
          expiresAt: new Date(Date.now() + emailChangeHours * 3_600_000),
          sessionId: who.sessionId,
        });
        return 'asked' as const;
      });
      if (outcome === 'stale') throw new AppError(401, ErrorCode.unauthorized, 'Not signed in');
      if (outcome === 'taken') throw new FieldValidationError({ email: [FieldError.emailTaken] });
      try {
        await sendEmailChangeMails?.({
          tenantId,
          customer,
          newEmail,
          token,
          hours: emailChangeHours,
          at: new Date(),
        });
      } catch (error) {
        // The customer is told to try again; the operator sees why in the log. The request is
        // spent: a link that may have gone out with the notice unsent must not work.
        onBackgroundError(error);
        await db.withTenant(tenantId, (sql) => repository.spendEmailChangesOf(sql, customerId));
        throw new AppError(503, ErrorCode.unavailable, 'The e-mail could not be sent', {
          'retry-after': '60',
        });
      }
      return { email: newEmail };
    },

    /** The new address's link: the sign-in e-mail becomes it, once, within its 24 hours. */
    async confirmEmailChange(
      tenantId: string,
      token: string,
      ip: string,
    ): Promise<{ email: string }> {
      await enforce(`confirm-email:ip:${tenantId}:${limitAddress(ip)}`, limits.confirmEmailPerIp);
      const outcome = await db
        .withTenant(tenantId, async (sql) => {
          const row = await repository.spendEmailChange(sql, hashToken(token));
          if (!row) return 'invalid' as const;
          if (row.expires_at.getTime() <= Date.now()) return 'expired' as const;
          const customer = await repository.findCustomerById(sql, row.customer_id);
          if (!customer) return 'invalid' as const;
          if (!(await repository.setEmail(sql, customer.id, row.new_email)))
            return 'taken' as const;
          // Links mailed to the old address (a reset, a sign-in link) no longer open the account,
          // nor a provider's account linked because it vouched for that address: whoever still
          // reads that mailbox is who the owner may be moving away from.
          const ended = await repository.spendAfterEmailMoved(sql, [customer.id]);
          await webhookEvents.customerEmailChanged(sql, customer.id, customer.email);
          return { email: row.new_email, ended };
        })
        .catch((error: unknown) => {
          // Two customers confirming the same address at once: the index refuses the second.
          if ((error as { code?: string }).code === '23505') return 'taken' as const;
          throw error;
        });
      if (outcome === 'invalid')
        throw new FieldValidationError({ token: [FieldError.invalidToken] });
      if (outcome === 'expired')
        throw new AppError(400, ErrorCode.emailChangeExpired, 'E-mail change link expired');
      if (outcome === 'taken') throw new FieldValidationError({ email: [FieldError.emailTaken] });
      await revocations.revoked(tenantId, outcome.ended);
      return { email: outcome.email };
    },

    async resetPassword(
      tenantId: string,
      input: { token: string; email: string; password: string },
      ip: string,
      /** The tenant's company and legal names: a password must not contain them. */
      organisationNames: readonly string[],
    ): Promise<{ customerId: string; secondFactorDropped: Date | null }> {
      await enforce(`reset:ip:${tenantId}:${limitAddress(ip)}`, limits.resetPerIp);
      const problems = await newPasswordProblems(input.password, {
        email: input.email,
        organisationNames,
      });
      if (problems.length > 0) throw new FieldValidationError({ password: problems });
      const newHash = await passwordGate.run(() => hashPassword(input.password), tenantId);
      const outcome = await db.withTenant(tenantId, async (sql) => {
        const row = await repository.findResetForUpdate(sql, hashToken(input.token), input.email);
        if (!row || row.used_at || !row.email_matches) return 'invalid' as const;
        if (row.expires_at.getTime() <= Date.now()) return 'expired' as const;
        if (!row.customer_id) return 'gone' as const;
        await repository.setPasswordHash(sql, row.customer_id, newHash);
        await repository.spendResets(sql, row.customer_id);
        // As for a change from the profile: no sign-in link or e-mail change asked for before it
        // outlives the reset.
        await repository.spendSignInLinksOf(sql, row.customer_id);
        await repository.spendEmailChangesOf(sql, row.customer_id);
        await repository.endPendingSetups(sql, row.customer_id);
        // The reset is the way back in for an owner whose password a thief used ("a passkey was
        // added", the e-mail says, with this button): every passkey goes, the thief's with it
        // (the owner adds theirs again; it can lock no one out of anything but passkeys).
        await repository.deletePasskeysOf(sql, row.customer_id);
        // So are the Google, Apple and Microsoft accounts linked to it: a linked one signs in
        // without the second factor, and one may be a thief's who once read the mailbox.
        await repository.unlinkIdentitiesOf(sql, row.customer_id);
        // And a second factor turned on in the last days (the "turned on" e-mail says so): a
        // thief's would keep the owner out for good. One older than that stays, so that a
        // mailbox alone does not get past a second factor the owner has long had.
        const secondFactorDropped = await repository.dropSecondFactorSince(
          sql,
          row.customer_id,
          recentSecondFactorHours,
        );
        const ended = await repository.revokeAllOfCustomer(sql, row.customer_id);
        return { ended, customerId: row.customer_id, secondFactorDropped };
      });
      if (outcome === 'invalid')
        throw new FieldValidationError({ token: [FieldError.invalidToken] });
      if (outcome === 'expired')
        throw new AppError(400, ErrorCode.resetTokenExpired, 'Reset link expired');
      if (outcome === 'gone') throw new AppError(404, ErrorCode.userNotFound, 'User not found');
      // The owner proved who they are: whatever slowed sign-ins to this account ends, and this
      // IP's failed attempts are forgotten.
      const email = limitKeyOfEmail(input.email);
      await Promise.all([
        limiter.reset(`login:acct:${tenantId}:${email}`),
        // A thief with the old password kept every code of the account refused (429), at sign-in
        // and, with a stolen session, from the profile (session 40).
        ...Object.values(codeBudgetKeys(tenantId, outcome.customerId)).map((key) =>
          limiter.reset(key),
        ),
        limiter.reset(`login:pair:${tenantId}:${email}:${limitAddress(ip)}`),
        limiter.reset(`login:gap:${tenantId}:${email}:${limitAddress(ip)}`),
      ]);
      // Every session of the customer ended with the old password, access tokens included.
      await revocations.revoked(tenantId, outcome.ended);
      return { customerId: outcome.customerId, secondFactorDropped: outcome.secondFactorDropped };
    },
  };
}
