import cookie from '@fastify/cookie';
import {
  apiPrefix,
  ErrorCode,
  routes,
  signInStartPath,
  ZSignInProvider,
  type TSignInProvider,
} from '@portal/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { deriveKey } from '../../lib/secrets.ts';
import {
  clearSessionCookies,
  deviceIdOf,
  refreshCookie,
  rememberDevice,
  setSessionCookies,
  xsrfCookie,
  xsrfHeader,
} from './cookies.ts';
import { createOidc, findProvider, type OidcState } from './oidc.ts';
import { createPasswordChangedMailer } from './changed-mail.ts';
import { createNewDeviceMailer } from './new-device-mail.ts';
import { describeDevice } from './device.ts';

/** A new passkey's name until the customer gives one: where it was made ("Chrome · Android"). */
const describePasskeyDevice = (userAgent: string | undefined): string => {
  const device = describeDevice(userAgent);
  return (
    [device.browser.replace(/ \d+$/, ''), device.os.replace(/ [\d.]+$/, '')]
      .filter(Boolean)
      .join(' · ') || 'Passkey'
  );
};
import { createResetMailer } from './reset-mail.ts';
import { createSignInLinkMailer } from './sign-in-link-mail.ts';
import { createEmailChangeMailer } from './email-change-mail.ts';
import { createSecurityChangeMailer, type SecurityChange } from './security-mail.ts';
import { limitAddress } from '../../lib/limit-address.ts';
import { createAuthService, type Session, type SignInOrigin } from './service.ts';
import { createSecondFactor, type Challenge } from './second-factor.ts';
import { createPasskeys, relyingPartyOf } from './passkeys.ts';

type SignInOriginOf = Omit<SignInOrigin, 'method'>;
import { appPaths } from '@portal/contract/app-paths';

export default async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const sendSecurityChangeMail = createSecurityChangeMailer(ctx.db, ctx.mailer);
  /** The owner hears of a new way into the account; a failed e-mail does not undo it. */
  const tellOwner = async (tenantId: string, customerId: string, change: SecurityChange) => {
    const customer = await service.findCustomer(tenantId, customerId);
    sendSecurityChangeMail({ tenantId, customer, change, at: new Date() }).catch((error: unknown) =>
      app.log.error({ err: error }, 'an account e-mail failed'),
    );
  };
  // Only these calls read or set cookies: parsing them here spares every other request a hook
  // (bench/README.md: the portal's plugins cost measurable throughput on /invoices).
  await app.register(cookie, { secret: deriveKey(ctx.rootSecret, 'cookie').toString('base64') });
  const secure = ctx.config.publicUrl.startsWith('https:');
  const secondFactor = createSecondFactor({
    db: ctx.db,
    secretBox: ctx.secretBox,
    limiter: ctx.limiter,
    limitScale: ctx.config.AUTH_LIMIT_SCALE,
    recoveryKey: deriveKey(ctx.rootSecret, 'recovery-code'),
  });
  const passkeys = createPasskeys({ db: ctx.db });
  const service = createAuthService({
    db: ctx.db,
    tokens: ctx.tokens,
    limiter: ctx.limiter,
    revocations: ctx.revocations,
    sendResetMail: createResetMailer(ctx.db, ctx.mailer),
    sendPasswordChangedMail: createPasswordChangedMailer(ctx.db, ctx.mailer),
    sendNewDeviceMail: createNewDeviceMailer(ctx.db, ctx.mailer),
    sendSignInLinkMail: createSignInLinkMailer(ctx.db, ctx.mailer),
    sendEmailChangeMails: createEmailChangeMailer(ctx.db, ctx.mailer),
    secondFactor,
    onBackgroundError: (error) => app.log.error({ err: error }, 'an account e-mail failed'),
    limitScale: ctx.config.AUTH_LIMIT_SCALE,
  });

  /**
   * Refresh and logout are authenticated by a cookie, so they need proof that this page sent them:
   * the XSRF double-submit (the Origin of every write is checked by plugins/app/same-origin.ts).
   */
  function checkCookieCall(request: FastifyRequest) {
    const header = request.headers[xsrfHeader];
    if (
      !ctx.xsrf.verify(request.cookies[xsrfCookie], typeof header === 'string' ? header : undefined)
    ) {
      throw new AppError(403, ErrorCode.forbidden, 'Missing or invalid XSRF token');
    }
  }

  const startSession = (
    request: FastifyRequest,
    reply: Parameters<typeof setSessionCookies>[0],
    session: Session,
  ) => setSessionCookies(reply, request, session, ctx.xsrf.issue(), secure);

  /**
   * A sign-in: opens the session, sets its cookies and the browser's device id; or, when a second
   * factor is still needed, answers the challenge and sets nothing.
   */
  async function signIn<T extends object>(
    request: FastifyRequest,
    reply: FastifyReply,
    open: (origin: SignInOriginOf) => Promise<(Session & T) | Challenge>,
  ) {
    const deviceId = deviceIdOf(request);
    const result = await open({
      userAgent: request.headers['user-agent'],
      ip: request.ip,
      deviceId,
    });
    if ('challenge' in result) return result;
    startSession(request, reply, result);
    rememberDevice(reply, request, deviceId, secure);
    return { access_token: result.accessToken, user: result.user };
  }

  const policyOf = (request: FastifyRequest) => request.tenant.second_factor;

  route(app, routes.login, ({ request, reply, body }) =>
    signIn(request, reply, (origin) =>
      service.login(request.tenant.id, body, origin, policyOf(request)),
    ),
  );

  // The second step: a code after the password or link (issue 24, decision 028).
  route(app, routes.secondFactorSignIn, async ({ request, reply, body }) => {
    let extra: { next: string; recovery_codes?: string[] } = { next: '' };
    const answer = await signIn(request, reply, async (origin) => {
      const session = await service.completeSecondFactor(request.tenant.id, body, origin);
      extra = {
        next: session.next,
        ...(session.recoveryCodes ? { recovery_codes: session.recoveryCodes } : {}),
      };
      // Recovery codes: the factor was turned on in this sign-in (a tenant that requires it). The
      // owner hears of it as from the profile: whoever had the password may have enrolled.
      if (session.recoveryCodes)
        await tellOwner(request.tenant.id, session.user.id, { kind: 'second-factor-on' });
      return session;
    });
    if ('challenge' in answer) throw new AppError(500, ErrorCode.internal, 'Unexpected challenge');
    return { ...answer, ...extra };
  });

  route(app, routes.secondFactorEnrol, async ({ request, body }) => {
    // Only where the tenant requires a second factor does a sign-in set one up: elsewhere a
    // challenge kept from before the factor was turned off (or a reset turned it off) would let
    // whoever kept it put their own authenticator on the account.
    if (request.tenant.second_factor !== 'required')
      throw new AppError(403, ErrorCode.signInMethodOff, 'No enrolment during sign-in here');
    return service.enrolDuringSignIn(
      request.tenant.id,
      body.challenge,
      request.tenant.company_name,
    );
  });

  route(app, routes.refreshToken, async ({ request, reply }) => {
    checkCookieCall(request);
    try {
      const session = await service.refresh(request.tenant.id, request.cookies[refreshCookie]);
      startSession(request, reply, session);
      return { access_token: session.accessToken, accessToken: session.accessToken };
    } catch (error) {
      clearSessionCookies(reply, request, secure);
      throw error;
    }
  });

  /** The operator turned sign-in by link off: no e-mail is sent and no link opens a session. */
  const requireLinkSignIn = (request: FastifyRequest) => {
    if (!request.tenant.sign_in_link)
      throw new AppError(403, ErrorCode.signInMethodOff, 'Sign-in by link is off for this portal');
  };

  route(app, routes.signInLink, async ({ request, body }) => {
    requireLinkSignIn(request);
    await service.requestSignInLink(request.tenant.id, body, request.ip);
    return { message: 'If the address belongs to a customer, a sign-in link is on its way' };
  });

  route(app, routes.redeemSignInLink, async ({ request, reply, body }) => {
    requireLinkSignIn(request);
    let next = '';
    const answer = await signIn(request, reply, async (origin) => {
      const result = await service.redeemSignInLink(
        request.tenant.id,
        body.token,
        origin,
        policyOf(request),
      );
      next = result.next;
      return result;
    });
    return { ...answer, next };
  });

  route(app, routes.logout, async ({ request, reply }) => {
    checkCookieCall(request);
    await service.logout(request.tenant.id, request.cookies[refreshCookie]);
    clearSessionCookies(reply, request, secure);
    return { message: 'Signed out' };
  });

  route(app, routes.forgotPassword, async ({ request, body }) => {
    await service.forgotPassword(request.tenant.id, body.email, request.ip);
    return { message: 'If the address belongs to a customer, a reset link is on its way' };
  });

  route(app, routes.resetPassword, async ({ request, body }) => {
    const { company_name: company, legal_name: legal } = request.tenant;
    const reset = await service.resetPassword(request.tenant.id, body, request.ip, [
      company,
      legal,
    ]);
    // Said to the owner: if it was them who turned it on, they turn it on again.
    if (reset.secondFactorDropped) {
      await tellOwner(request.tenant.id, reset.customerId, {
        kind: 'second-factor-reset',
        since: reset.secondFactorDropped,
      });
    }
    return { message: 'Password changed' };
  });

  route(
    app,
    routes.changePassword,
    async ({ request, body }) => {
      const { company_name: company, legal_name: legal } = request.tenant;
      await service.changePassword(customerOf(request), body, [company, legal]);
      return { message: 'Password changed' };
    },
    { preValidation: [ctx.requireCustomer] },
  );

  // The sign-in e-mail (issue 23): changed once the new address confirms it with its link.
  route(
    app,
    routes.requestEmailChange,
    async ({ request, body }) => service.requestEmailChange(customerOf(request), body),
    { preValidation: [ctx.requireCustomer] },
  );
  route(app, routes.confirmEmailChange, async ({ request, body }) =>
    service.confirmEmailChange(request.tenant.id, body.token, request.ip),
  );

  // "Your devices" (issue 24): where the customer is signed in, and ending those sessions.
  const customerOf = (request: FastifyRequest) => ({
    tenantId: request.tenant.id,
    customerId: request.customerId,
    sessionId: request.sessionId,
  });
  route(
    app,
    routes.sessions,
    async ({ request }) => ({ sessions: await service.listSessions(customerOf(request)) }),
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.endSession,
    async ({ request, params }) => ({
      ended: await service.endSession(customerOf(request), params.id),
    }),
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.endOtherSessions,
    async ({ request }) => ({ ended: await service.endOtherSessions(customerOf(request)) }),
    { preValidation: [ctx.requireCustomer] },
  );
  route(app, routes.endSessionByLink, async ({ request, body }) => ({
    ended: await service.endSessionByLink(request.tenant.id, body.token, request.ip),
  }));

  // The profile's second factor (issue 24): status, set up, confirm with a code, turn off.
  const requireOffered = (request: FastifyRequest) => {
    if (request.tenant.second_factor === 'off')
      throw new AppError(403, ErrorCode.signInMethodOff, 'No second factor on this portal');
  };
  route(
    app,
    routes.secondFactor,
    ({ request }) => secondFactor.status(request.tenant.id, request.customerId),
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.secondFactorSetup,
    async ({ request, body }) => {
      requireOffered(request);
      // A stolen access token must not turn the factor on (and lock the owner out): the owner's
      // password, or a fresh sign-in for a customer who has none.
      const customer = await service.stepUp(customerOf(request), body.current_password);
      return secondFactor.setup(request.tenant.id, customer, request.tenant.company_name);
    },
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.secondFactorConfirm,
    async ({ request, body }) => {
      requireOffered(request);
      const codes = await secondFactor.confirm(customerOf(request), body.code);
      await tellOwner(request.tenant.id, request.customerId, { kind: 'second-factor-on' });
      return { recovery_codes: codes };
    },
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.secondFactorDisable,
    async ({ request, body }) => {
      await secondFactor.disable(customerOf(request), body.code, request.tenant.second_factor);
      return { message: 'Second factor turned off' };
    },
    { preValidation: [ctx.requireCustomer] },
  );

  // Passkeys (issue 24, decision 029): the relying party is the tenant's host.
  const requirePasskeys = (request: FastifyRequest) => {
    if (!request.tenant.passkeys)
      throw new AppError(403, ErrorCode.signInMethodOff, 'Passkeys are off for this portal');
  };
  route(app, routes.passkeySignInOptions, async ({ request }) => {
    requirePasskeys(request);
    await ctx.limiter
      .hit(
        `passkey:ip:${request.tenant.id}:${limitAddress(request.ip)}`,
        60 * (ctx.config.AUTH_LIMIT_SCALE ?? 1),
        15 * 60,
      )
      .then((verdict) => {
        if (!verdict.allowed)
          throw new AppError(429, ErrorCode.rateLimited, 'Too many attempts', {
            'retry-after': String(verdict.retryAfterSeconds),
          });
      });
    return passkeys.authenticationOptions(request.tenant.id, relyingPartyOf(request.tenant));
  });
  route(app, routes.passkeySignIn, async ({ request, reply, body }) => {
    requirePasskeys(request);
    const answer = await signIn(request, reply, async (origin) => {
      const by = await passkeys.authenticate(
        request.tenant.id,
        relyingPartyOf(request.tenant),
        body.credential as unknown as Parameters<typeof passkeys.authenticate>[2],
      );
      return service.signInWithPasskey(request.tenant.id, by, body.remember === true, origin);
    });
    if ('challenge' in answer) throw new AppError(500, ErrorCode.internal, 'Unexpected challenge');
    return answer;
  });
  route(
    app,
    routes.passkeys,
    async ({ request }) => ({
      passkeys: await passkeys.list(request.tenant.id, request.customerId),
    }),
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.passkeyRegisterOptions,
    async ({ request, body }) => {
      requirePasskeys(request);
      // Only the owner's password (or a fresh sign-in, for a customer who has none) gets the
      // challenge a new passkey must sign: an access token alone adds none.
      const customer = await service.stepUp(customerOf(request), body.current_password);
      return passkeys.registrationOptions(
        request.tenant.id,
        relyingPartyOf(request.tenant),
        customer,
      );
    },
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.passkeyRegister,
    async ({ request, reply, body }) => {
      requirePasskeys(request);
      const added = await passkeys.register(
        request.tenant.id,
        relyingPartyOf(request.tenant),
        request.customerId,
        body.credential as unknown as Parameters<typeof passkeys.register>[3],
        body.name ?? describePasskeyDevice(request.headers['user-agent']),
      );
      await tellOwner(request.tenant.id, request.customerId, {
        kind: 'passkey-added',
        name: added.name,
      });
      void reply.status(201);
      return added;
    },
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.renamePasskey,
    async ({ request, params, body }) => {
      await passkeys.rename(request.tenant.id, request.customerId, params.id, body.name);
      return { message: 'Renamed' };
    },
    { preValidation: [ctx.requireCustomer] },
  );
  route(
    app,
    routes.deletePasskey,
    async ({ request, params }) => {
      await service.removePasskey(customerOf(request), params.id);
      return { message: 'Removed' };
    },
    { preValidation: [ctx.requireCustomer] },
  );

  // External sign-in (OpenID Connect, authorization code + PKCE, state and nonce).
  const oidc = createOidc();
  const stateCookie = 'oidc_state';
  const redirectUri = (request: FastifyRequest, provider: TSignInProvider) =>
    `${request.tenant.canonical_url.replace(/\/$/, '')}${appPaths.authCallback.href(provider)}`;
  const stateCookieOptions = (request: FastifyRequest) => ({
    path: `${apiPrefix(request.tenant.id)}/auth`,
    httpOnly: true,
    // Lax: the state must survive the top-level return from the provider (a GET navigation).
    sameSite: 'lax' as const,
    secure,
    signed: true,
  });
  const failed = () => new AppError(400, ErrorCode.signInFailed, 'External sign-in failed');

  app.get(
    signInStartPath(':provider' as 'google'),
    { schema: { hide: true }, config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { provider } = request.params as { provider: string };
      const remember = ['1', 'true'].includes(
        String((request.query as { remember?: unknown }).remember),
      );
      const loginPage = `${request.tenant.canonical_url.replace(/\/$/, '')}${appPaths.login}?signin_error=${ErrorCode.signInFailed}`;
      const parsed = ZSignInProvider.safeParse(provider);
      const row = parsed.success
        ? await ctx.db.withTenant(request.tenant.id, (sql) =>
            findProvider(sql, ctx.secretBox, parsed.data),
          )
        : undefined;
      if (!row) return reply.redirect(loginPage, 302);
      try {
        const { url, state } = await oidc.authorizationUrl(
          row,
          redirectUri(request, row.provider),
          remember,
        );
        void reply.setCookie(stateCookie, JSON.stringify(state), {
          ...stateCookieOptions(request),
          maxAge: 600,
        });
        return reply.redirect(url.href, 302);
      } catch (error) {
        request.log.error({ err: error }, 'OpenID discovery failed');
        return reply.redirect(loginPage, 302);
      }
    },
  );

  route(app, routes.signInCallback, async ({ request, reply, body, params }) => {
    const raw = request.cookies[stateCookie];
    const unsigned = raw ? request.unsignCookie(raw) : undefined;
    void reply.clearCookie(stateCookie, stateCookieOptions(request));
    if (!unsigned?.valid || !unsigned.value) throw failed();
    let saved: OidcState;
    try {
      saved = JSON.parse(unsigned.value) as OidcState;
    } catch {
      throw failed();
    }
    if (saved.provider !== params.provider || saved.state !== body.state) throw failed();
    const row = await ctx.db.withTenant(request.tenant.id, (sql) =>
      findProvider(sql, ctx.secretBox, params.provider),
    );
    if (!row) throw failed();
    let person;
    try {
      person = await oidc.exchange(row, redirectUri(request, row.provider), body, saved);
    } catch (error) {
      request.log.warn({ err: error }, 'OpenID code exchange refused');
      throw failed();
    }
    // The provider's own sign-in is the proof here: no code is asked after it (decision 028).
    const answer = await signIn(request, reply, (origin) =>
      service.signInExternal(
        request.tenant.id,
        person,
        row.provider,
        saved.remember,
        origin,
        policyOf(request),
      ),
    );
    if ('challenge' in answer) throw failed();
    return answer;
  });
}
