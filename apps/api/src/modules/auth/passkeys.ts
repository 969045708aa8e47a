import { ErrorCode } from '@portal/contract';
import type * as WebAuthn from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Database, Sql } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { createPasskeyRepository, type CustomerAuthRow, type PasskeyRow } from './repository.ts';

type Transport = NonNullable<RegistrationResponseJSON['response']['transports']>[number];

/**
 * The WebAuthn library, loaded at the first passkey ceremony rather than at start: it brings some
 * 270 modules (ASN.1, X.509, CBOR) that a starting server does not need (bench/service.ts: start
 * to ready). The first ceremony of a process waits for it once.
 */
let webAuthn: Promise<typeof WebAuthn> | undefined;
const loadWebAuthn = (): Promise<typeof WebAuthn> =>
  (webAuthn ??= import('@simplewebauthn/server'));

/** How long a WebAuthn challenge waits for the authenticator. */
const challengeMinutes = 5;

/** The tenant as a relying party: its host is the RP ID, its canonical origin the only origin. */
export type RelyingParty = { id: string; origin: string; name: string };
export const relyingPartyOf = (tenant: {
  canonical_url: string;
  company_name: string;
}): RelyingParty => {
  const url = new URL(tenant.canonical_url);
  return { id: url.hostname, origin: url.origin, name: tenant.company_name };
};

/**
 * The browser's `transports`, passed through by the library unchecked: only the names WebAuthn
 * defines are kept (anything else, a number or a string where a list goes, is dropped, not a 500).
 */
const transportNames = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const knownTransports = (value: unknown): Transport[] =>
  Array.isArray(value)
    ? value.filter((t): t is Transport => typeof t === 'string' && transportNames.has(t))
    : [];

/** The library's options as the contract's JSON object (their interfaces have no index type). */
const asJson = (options: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(options));

const uuidBytes = (uuid: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(uuid.replace(/-/g, ''), 'hex'));
const refused = () => new AppError(401, ErrorCode.invalidCredentials, 'Passkey not accepted');

export const passkeyOut = (row: PasskeyRow) => ({
  id: row.id,
  name: row.name,
  backed_up: row.backed_up,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
});

/**
 * Passkeys (WebAuthn, issue 24) with @simplewebauthn/server (decision 029): discoverable
 * credentials, so signing in needs no e-mail first (and the browser can offer them in the e-mail
 * field's autofill). Each challenge is stored, single use, 5 minutes; the relying party is the
 * tenant's host, so a passkey of one portal is neither offered nor accepted on another. Only
 * public keys are stored. User verification (the fingerprint, face or PIN) is required at both
 * ceremonies: a passkey sign-in asks for no code, so the device alone must not be enough.
 */
export function createPasskeys({ db }: { db: Database }) {
  const repository = createPasskeyRepository();

  const saveChallenge = (
    tenantId: string,
    challenge: string,
    purpose: 'register' | 'authenticate',
    customerId: string | null,
  ) =>
    db.withTenant(tenantId, (sql) =>
      repository.insertChallenge(sql, {
        challenge,
        purpose,
        customerId,
        expiresAt: new Date(Date.now() + challengeMinutes * 60_000),
      }),
    );

  /** The challenge the authenticator signed was ours, for this purpose (and customer): spent. */
  const spends =
    (sql: Sql, purpose: 'register' | 'authenticate', customerId?: string) =>
    async (challenge: string): Promise<boolean> => {
      const row = await repository.spendChallenge(sql, challenge, purpose);
      if (!row) return false;
      return customerId === undefined || row.customer_id === customerId;
    };

  return {
    async list(tenantId: string, customerId: string) {
      const rows = await db.withTenant(tenantId, (sql) =>
        repository.listOfCustomer(sql, customerId),
      );
      return rows.map(passkeyOut);
    },

    async registrationOptions(tenantId: string, rp: RelyingParty, customer: CustomerAuthRow) {
      const existing = await db.withTenant(tenantId, (sql) =>
        repository.listOfCustomer(sql, customer.id),
      );
      const options = await (
        await loadWebAuthn()
      ).generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: customer.email,
        userDisplayName: [customer.name, customer.last_name].filter(Boolean).join(' '),
        userID: uuidBytes(customer.id),
        attestationType: 'none',
        excludeCredentials: existing.map((p) => ({
          id: p.credential_id,
          transports: p.transports as Transport[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await saveChallenge(tenantId, options.challenge, 'register', customer.id);
      return asJson(options);
    },

    async register(
      tenantId: string,
      rp: RelyingParty,
      customerId: string,
      credential: RegistrationResponseJSON,
      name: string,
    ) {
      // Loaded before the transaction opens: the first ceremony of a process waits for it there.
      const { verifyRegistrationResponse } = await loadWebAuthn();
      return db.withTenant(tenantId, async (sql) => {
        let verified;
        try {
          verified = await verifyRegistrationResponse({
            response: credential,
            expectedChallenge: spends(sql, 'register', customerId),
            expectedOrigin: rp.origin,
            expectedRPID: rp.id,
            requireUserVerification: true,
          });
        } catch {
          throw new AppError(400, ErrorCode.badRequest, 'The passkey could not be verified');
        }
        if (!verified.verified)
          throw new AppError(400, ErrorCode.badRequest, 'The passkey could not be verified');
        const info = verified.registrationInfo;
        if (await repository.findByCredential(sql, info.credential.id))
          throw new AppError(409, ErrorCode.conflict, 'This passkey is already added');
        await repository.insertPasskey(sql, {
          customerId,
          credentialId: info.credential.id,
          publicKey: info.credential.publicKey,
          counter: info.credential.counter,
          transports: knownTransports(info.credential.transports),
          name,
          backedUp: info.credentialBackedUp,
        });
        const row = await repository.findByCredential(sql, info.credential.id);
        if (!row) throw new Error('the passkey just added is gone');
        return passkeyOut(row);
      });
    },

    async authenticationOptions(tenantId: string, rp: RelyingParty) {
      const options = await (
        await loadWebAuthn()
      ).generateAuthenticationOptions({
        rpID: rp.id,
        userVerification: 'required',
      });
      await saveChallenge(tenantId, options.challenge, 'authenticate', null);
      return asJson(options);
    },

    /** Answers the customer whose passkey signed our challenge, or refuses (401). */
    async authenticate(
      tenantId: string,
      rp: RelyingParty,
      credential: AuthenticationResponseJSON,
    ): Promise<{ customerId: string; passkeyId: string }> {
      const { verifyAuthenticationResponse } = await loadWebAuthn();
      return db.withTenant(tenantId, async (sql) => {
        // Another portal's passkey is unknown here (RLS): the same refusal as every other.
        const passkey = await repository.findByCredential(sql, credential.id);
        if (!passkey) throw refused();
        let verified;
        try {
          verified = await verifyAuthenticationResponse({
            response: credential,
            expectedChallenge: spends(sql, 'authenticate'),
            expectedOrigin: rp.origin,
            expectedRPID: rp.id,
            credential: {
              id: passkey.credential_id,
              publicKey: new Uint8Array(passkey.public_key),
              counter: Number(passkey.counter),
              transports: passkey.transports as Transport[],
            },
            requireUserVerification: true,
          });
        } catch {
          throw refused();
        }
        if (!verified.verified) throw refused();
        await repository.markUsed(sql, passkey.id, verified.authenticationInfo.newCounter);
        return { customerId: passkey.customer_id, passkeyId: passkey.id };
      });
    },

    async rename(tenantId: string, customerId: string, id: string, name: string) {
      const done = await db.withTenant(tenantId, (sql) =>
        repository.rename(sql, customerId, id, name),
      );
      if (!done) throw new AppError(404, ErrorCode.notFound, 'No such passkey');
    },
  };
}
