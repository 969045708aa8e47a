import {
  emailPattern,
  isSpanishTaxId,
  normalizeTaxId,
  parseWebsite,
  phoneHref,
  ZTenantId,
} from '@portal/contract';
import { isSepaCreditorId, normalizeSepaCreditorId } from '@portal/contract/sepa-mandates';
import { isSignatureVersion, SIGNATURE_VERSIONS } from '@portal/redsys';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';

/**
 * The values the tenant administration CLI accepts (cli.ts and its commands), one zod schema per option: each
 * turns the text of the command line into what the `tenants` column holds (migrations 001-004),
 * and every refusal names its option. An empty value clears an optional field.
 */

/** A value refused: the message names the option, e.g. `--primary-color: expected ...`. */
export type InputProblem = { option?: string; message: string };

/** Parses `value` with `schema`; on failure the first issue's message, prefixed by the option. */
export function parseOption<T>(
  option: string,
  schema: z.ZodType<T>,
  value: unknown,
): { ok: true; value: T } | { ok: false; problem: InputProblem } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problem: { option, message: result.error.issues[0]?.message ?? 'invalid value' },
  };
}

const quoted = (value: string) =>
  JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);

/** A trimmed text of at most `max` characters; `min` 1 makes it required. */
const text = (max: number, min = 0) =>
  z
    .string()
    .trim()
    .min(min, 'must not be empty')
    .max(max, `at most ${max} characters`)
    .refine((v) => !hasControlCharacters(v, { allowNewlines: true }), {
      message: 'must not contain control characters',
    });

/** Control characters other than tab and newlines (which a description may hold). */
function hasControlCharacters(value: string, options: { allowNewlines: boolean }): boolean {
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (options.allowNewlines && (code === 9 || code === 10 || code === 13)) continue;
    if (code < 32 || code === 127) return true;
  }
  return false;
}

/** Either empty (clears the field) or the value `schema` accepts, with `schema`'s own messages. */
const orEmpty = <T>(schema: z.ZodType<T, string>) =>
  z.string().transform((value, ctx): T | '' => {
    if (value.trim() === '') return '';
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

export const ZTenantIdOption = z.string().refine((v) => ZTenantId.safeParse(v).success, {
  error: (issue) =>
    `${quoted(String(issue.input))} is not a tenant id: lowercase letters, digits and inner hyphens, ` +
    'at most 63 characters (the first label of the host name)',
});

/** `value` as a URL that is https (http only for a local host), or null with the issue added. */
function httpsUrl(value: string, ctx: z.RefinementCtx): URL | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    ctx.addIssue({ code: 'custom', message: `${quoted(value)} is not a URL` });
    return null;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalHost(url.hostname))) {
    ctx.addIssue({
      code: 'custom',
      message: `must be an https:// URL (http:// only for localhost), got ${quoted(value)}`,
    });
    return null;
  }
  return url;
}

/** Where the portal of this tenant lives: https (http only for localhost), no path. */
export const ZCanonicalUrl = z.string().transform((value, ctx) => {
  const url = httpsUrl(value, ctx);
  if (!url) return z.NEVER;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    ctx.addIssue({
      code: 'custom',
      message: `must be the portal's origin only (https://host[:port]), with no path, query or credentials: ${quoted(value)}`,
    });
    return z.NEVER;
  }
  return url.origin;
});

export const isLocalHost = (hostname: string): boolean =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '127.0.0.1' ||
  hostname === '[::1]';

const email = z
  .string()
  .trim()
  .max(254, 'at most 254 characters')
  .refine((v) => emailPattern.test(v), {
    error: (issue) => `${quoted(String(issue.input))} is not an e-mail address`,
  });

/** The SMTP sender: `addr` or `Name <addr>`. A comma or quote in the name would change the header. */
const mailbox = z
  .string()
  .trim()
  .refine(
    (v) => {
      const match = /^(?:([^<>]*?)\s*<([^<>\s]+)>|([^<>\s]+))$/.exec(v);
      if (!match) return false;
      const name = match[1] ?? '';
      const address = match[2] ?? match[3] ?? '';
      return (
        emailPattern.test(address) &&
        address.length <= 254 &&
        name.length <= 100 &&
        // What an address's display name cannot carry unquoted: a colon made a group of it, and
        // brackets a comment that mail clients drop (session 39).
        !/[",;\\:()[\]@]/.test(name) &&
        !hasControlCharacters(name, { allowNewlines: false })
      );
    },
    {
      error: (issue) =>
        `${quoted(String(issue.input))} is not a sender: "Name <address>" or "address" ` +
        '(no comma, semicolon, colon, quote, bracket or @ in the name)',
    },
  );

/** As the web app links it (contract links.ts): what it would not link is refused here. */
const phone = z
  .string()
  .trim()
  .refine((v) => phoneHref(v) !== null, {
    error: (issue) =>
      `${quoted(String(issue.input))} is not a telephone number: 6 to 20 digits, with an optional ` +
      'leading +, spaces, dots, dashes or brackets',
  });

const website = z
  .string()
  .trim()
  .refine((v) => parseWebsite(v) !== null, {
    error: (issue) =>
      `${quoted(String(issue.input))} is not a website: an https:// address of at most 200 ` +
      'characters, without spaces or credentials',
  });

const hexColour = z
  .string()
  .trim()
  .refine((v) => /^#?[0-9A-Fa-f]{6}$/.test(v), {
    error: (issue) =>
      `expected six hex digits, RRGGBB or #RRGGBB, got ${quoted(String(issue.input))}`,
  })
  .transform((v) => v.replace(/^#/, '').toUpperCase());

const taxId = z
  .string()
  .trim()
  .refine((v) => isSpanishTaxId(v), {
    error: (issue) =>
      `${quoted(String(issue.input))} is not a valid Spanish tax id (NIF, NIE or CIF with its check character)`,
  })
  .transform(normalizeTaxId);

const iban = z
  .string()
  .trim()
  .refine((v) => isValidIBAN(electronicFormatIBAN(v) ?? ''), {
    error: (issue) => `${quoted(String(issue.input))} is not a valid IBAN (check digits)`,
  })
  .transform((v) => electronicFormatIBAN(v) ?? v);

/** A SEPA creditor identifier (ES11ZZZB12345674), its ISO 7064 mod 97-10 check digits verified. */
const sepaCreditorId = z
  .string()
  .trim()
  .refine(isSepaCreditorId, {
    error: (issue) =>
      `${quoted(String(issue.input))} is not a valid SEPA creditor identifier (e.g. ES11ZZZB12345674: country, check digits, business code, national id)`,
  })
  .transform(normalizeSepaCreditorId);

/** A comma-separated list, blanks dropped, each entry once. */
const list = (check: (entry: string) => boolean, describe: (bad: string) => string) =>
  z.string().transform((value, ctx) => {
    const entries = [
      ...new Set(
        value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const bad = entries.find((e) => !check(e));
    if (bad !== undefined) {
      ctx.addIssue({ code: 'custom', message: describe(bad) });
      return z.NEVER;
    }
    return entries;
  });

/** A whole number from `min` to `max`, written as digits. */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= min && Number(v) <= max, {
      error: (issue) =>
        `expected a whole number from ${min} to ${max}, got ${quoted(String(issue.input))}`,
    })
    .transform(Number);

/** Redsys' Ds_Merchant_PayMethods codes are short letter codes (C card, z Bizum, R transfer, ...). */
const payMethodPattern = /^[A-Za-z]{1,8}$/;

/** The column each field option writes, and how its text becomes the column's value. */
export const tenantFields = {
  'company-name': { column: 'company_name', schema: text(200, 1) },
  description: { column: 'description', schema: text(2000) },
  'primary-color': { column: 'primary_color', schema: hexColour },
  'legal-name': { column: 'legal_name', schema: text(200) },
  'legal-nif': { column: 'legal_nif', schema: orEmpty(taxId) },
  'legal-address': { column: 'legal_address', schema: text(500) },
  'contact-email': { column: 'contact_email', schema: orEmpty(email) },
  'privacy-email': { column: 'privacy_email', schema: orEmpty(email) },
  'dpo-email': { column: 'dpo_email', schema: orEmpty(email) },
  phone: { column: 'phone', schema: orEmpty(phone) },
  website: { column: 'website', schema: orEmpty(website) },
  // In the organisation's words ("L-V 7:00-22:00, S 9:00-14:00"); the dialog keeps line breaks.
  'opening-hours': { column: 'opening_hours', schema: text(200) },
  'mail-from': { column: 'mail_from', schema: orEmpty(mailbox) },
  'bank-iban': { column: 'bank_iban', schema: orEmpty(iban) },
  // The SEPA QR of a bank transfer carries at most 70 characters of the beneficiary (EPC069-12).
  'bank-beneficiary': { column: 'bank_beneficiary', schema: text(70) },
  'redsys-environment': {
    column: 'redsys_environment',
    schema: z.enum(['simulator', 'test', 'production'], {
      error: (issue) =>
        `expected simulator, test or production, got ${quoted(String(issue.input))}`,
    }),
  },
  'redsys-merchant-code': {
    column: 'redsys_merchant_code',
    schema: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{9}$/.test(v), {
        error: (issue) =>
          `expected the 9-digit merchant code (FUC), got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v || null),
  },
  'redsys-terminal': {
    column: 'redsys_terminal',
    schema: z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d{1,3}$/.test(v), {
        error: (issue) =>
          `expected a terminal number of 1 to 3 digits, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v || null),
  },
  'redsys-signature-versions': {
    column: 'redsys_signature_versions',
    schema: list(
      isSignatureVersion,
      (bad) =>
        `unknown signature version ${quoted(bad)}; supported: ${SIGNATURE_VERSIONS.join(', ')}`,
    ).refine((v) => v.length > 0, {
      message: `at least one of ${SIGNATURE_VERSIONS.join(', ')}`,
    }),
  },
  'redsys-pay-methods': {
    column: 'redsys_pay_methods',
    schema: list(
      (e) => payMethodPattern.test(e),
      (bad) =>
        `${quoted(bad)} is not a Redsys pay-method code (letters, e.g. C card, z Bizum, R transfer)`,
    ),
  },
  // Issue 20: what happens to the surplus of a payment for instalments already paid.
  'auto-refund': {
    column: 'auto_refund',
    schema: z
      .enum(['on', 'off'], {
        error: (issue) => `expected on or off, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v === 'on'),
  },
  // Issue 24: sign-in by a link sent by e-mail, offered on the sign-in screen.
  'sign-in-link': {
    column: 'sign_in_link',
    schema: z
      .enum(['on', 'off'], {
        error: (issue) => `expected on or off, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v === 'on'),
  },
  passkeys: {
    column: 'passkeys',
    schema: z
      .enum(['on', 'off'], {
        error: (issue) => `expected on or off, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v === 'on'),
  },
  'second-factor': {
    column: 'second_factor',
    schema: z.enum(['off', 'optional', 'required'], {
      error: (issue) => `expected off, optional or required, got ${quoted(String(issue.input))}`,
    }),
  },
  // Issue 23, item 4: a returned direct debit's bank fee is paid with the instalment (on) or not.
  'charge-return-fee': {
    column: 'charge_return_fee',
    schema: z
      .enum(['on', 'off'], {
        error: (issue) => `expected on or off, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v === 'on'),
  },
  // Issue 23: auto-pay of instalments with a saved card (merchant-initiated charges).
  'auto-pay': {
    column: 'auto_pay',
    schema: z
      .enum(['on', 'off'], {
        error: (issue) => `expected on or off, got ${quoted(String(issue.input))}`,
      })
      .transform((v) => v === 'on'),
  },
  'auto-pay-notice-days': { column: 'auto_pay_notice_days', schema: wholeNumber(0, 30) },
  'auto-pay-retries': { column: 'auto_pay_retries', schema: wholeNumber(0, 10) },
  'auto-pay-retry-days': { column: 'auto_pay_retry_days', schema: wholeNumber(1, 30) },
  // Issue 23, item 6: the SEPA creditor identifier direct-debit mandates are signed for.
  'sepa-creditor-id': { column: 'sepa_creditor_id', schema: orEmpty(sepaCreditorId) },
} as const satisfies Record<string, { column: string; schema: z.ZodType<unknown, string> }>;

export type TenantFieldOption = keyof typeof tenantFields;
export const tenantFieldOptions = Object.keys(tenantFields) as TenantFieldOption[];

export const ZSignInProvider = z.enum(['google', 'apple', 'microsoft'], {
  error: (issue) => `expected google, apple or microsoft, got ${quoted(String(issue.input))}`,
});

/**
 * An OpenID issuer: https (http only for a local test provider). Microsoft's shared issuers
 * (common, organizations, consumers) do not match the issuer of the tokens they sign, and would let
 * any Microsoft account sign in: a directory's own issuer is required (see auth/oidc.ts).
 */
export const ZIssuer = z.string().transform((value, ctx) => {
  const url = httpsUrl(value, ctx);
  if (!url) return z.NEVER;
  if (url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: `must have no query, fragment or credentials` });
    return z.NEVER;
  }
  return value.trim();
});

export const microsoftSharedIssuer =
  /^https:\/\/login\.microsoftonline\.com\/(common|organizations|consumers)(\/|$)/i;

/** The issuers Google and Apple sign with: anything else is most likely a typo (only warned). */
export const wellKnownIssuers: Partial<Record<string, string>> = {
  google: 'https://accounts.google.com',
  apple: 'https://appleid.apple.com',
};

export const ZClientId = text(255, 1);
export const ZApiKeyName = text(100, 1);
export const ZUuid = z.string().refine((v) => z.uuid().safeParse(v).success, {
  error: (issue) =>
    `${quoted(String(issue.input))} is not an API key id (a UUID; see api-key list)`,
});

/** The id of an overpayment (`overpayments list`): a UUID. */
export const ZRefundId = z.string().refine((v) => z.uuid().safeParse(v).success, {
  error: (issue) =>
    `${quoted(String(issue.input))} is not an overpayment id (a UUID; see overpayments list)`,
});
export const ZResolvedNote = text(500);

/** The logo's size limit: it is stored in the row and sent with every PDF. */
export const maxLogoBytes = 512 * 1024;

export type LogoMime = 'image/svg+xml' | 'image/png' | 'image/jpeg' | 'image/webp';

const mimeByExtension: Record<string, LogoMime> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

/** What the bytes are, by their signature (SVG: an `<svg` root after any prolog). */
function sniffImage(bytes: Uint8Array): LogoMime | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  if (b.includes(0)) return undefined;
  let head = b.toString('utf8', 0, 8192).replace(/^\uFEFF/, '');
  // Skip the XML declaration, comments, processing instructions and the doctype.
  for (;;) {
    const rest = head.replace(
      /^\s*(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i,
      '',
    );
    if (rest === head) break;
    head = rest;
  }
  return /^\s*<svg[\s>/]/i.test(head) ? 'image/svg+xml' : undefined;
}

/** The logo file's type from its content, cross-checked with its extension when it has a known one. */
export function checkLogo(
  path: string,
  bytes: Uint8Array,
): { ok: true; mime: LogoMime } | { ok: false; message: string } {
  if (bytes.byteLength === 0) return { ok: false, message: `${path} is empty` };
  if (bytes.byteLength > maxLogoBytes) {
    return {
      ok: false,
      message: `${path} is ${Math.ceil(bytes.byteLength / 1024)} KiB, over the ${maxLogoBytes / 1024} KiB limit`,
    };
  }
  const mime = sniffImage(bytes);
  if (!mime) return { ok: false, message: `${path} is not an SVG, PNG, JPEG or WebP image` };
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  const expected = mimeByExtension[extension];
  if (expected && expected !== mime) {
    return {
      ok: false,
      message: `${path} holds ${mime} but its name ends in .${extension}`,
    };
  }
  return { ok: true, mime };
}

/** A secret read from a file or stdin, without the newline an editor or `echo` adds. */
export const trimSecret = (raw: string): string => raw.replace(/[\r\n]+$/, '');
