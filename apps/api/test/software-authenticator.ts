import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type Cbor = Parameters<typeof isoCBOR.encode>[0];

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** authenticatorData's flags (WebAuthn §6.1): user present, user verified, attested data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A passkey authenticator in software (ES256, "none" attestation), for API tests of what the
 * server checks: the challenge, the origin, the relying party and the user-verification flag. It
 * answers as a browser's `navigator.credentials` JSON (what @simplewebauthn/browser posts).
 * Chromium's virtual authenticator does the same in e2e/passkeys.spec.ts, through a real page.
 */
export function softwareAuthenticator(origin: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const credentialId = randomBytes(16);
  let counter = 0;
  let userHandle = '';

  const jwk = publicKey.export({ format: 'jwk' });
  const cosePublicKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );

  const authData = (rpId: string, flags: number, attested?: Uint8Array) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(++counter);
    return Buffer.concat([
      sha256(rpId),
      Buffer.from([flags]),
      count,
      ...(attested ? [attested] : []),
    ]);
  };
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** Answers `navigator.credentials.create` for the server's registration options. */
    create(options: Record<string, unknown>, { verified = true } = {}) {
      const rp = options.rp as { id: string };
      userHandle = (options.user as { id: string }).id;
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, cosePublicKey]);
      const attestationObject = isoCBOR.encode(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, Cbor>()],
          ['authData', authData(rp.id, UP | AT | (verified ? UV : 0), attested)],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', String(options.challenge))),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** Answers `navigator.credentials.get` for the server's sign-in options. */
    get(options: Record<string, unknown>, { verified = true } = {}) {
      const data = authData(String(options.rpId), UP | (verified ? UV : 0));
      const client = clientData('webauthn.get', String(options.challenge));
      const signature = sign(
        'sha256',
        Buffer.concat([data, sha256(client)]),
        privateKey as KeyObject,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
