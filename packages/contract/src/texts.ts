import { z } from 'zod';
import { FieldError } from './errors.ts';
import { hasUnsafeText } from './input-safety.ts';

/**
 * The texts a person types, as every schema of the contract takes them: trimmed, bounded, free of
 * what every call refuses (input-safety.ts). A field of one line (a name, an address line, a
 * subject) takes no line break either: one in the contact form's name wrote a line of its own in
 * the organisation's e-mail that could pass for the sender line (session 36), and one in a fiscal
 * name or a postal city became a line of the invoice PDF's recipient box, a forged "NIF: …" under
 * the customer's name (session 39). NEL (U+0085) and the Unicode line and paragraph separators are
 * line breaks too, in Unicode and in some mail clients and PDF readers (session 38).
 */
export const lineBreak = /[\r\n\u0085\u2028\u2029]/;

/** A required text: trimmed, not empty, bounded, safe. */
export const requiredText = (max: number) =>
  z
    .string(FieldError.required)
    .trim()
    // abort: an empty field reports only "required", not also the format checks that follow.
    .min(1, { error: FieldError.required, abort: true })
    .max(max, { error: FieldError.tooLong, abort: true })
    // What every call refuses (input-safety.ts), said by the schema too: the web app's forms check
    // with this same schema before sending (decision 019).
    .refine((v) => !hasUnsafeText(v), { error: FieldError.invalidCharacters, abort: true });

/** A required text of one line. */
export const requiredLine = (max: number) =>
  requiredText(max).refine((v) => !lineBreak.test(v), {
    error: FieldError.invalidCharacters,
    abort: true,
  });

/** A text that may be left empty: trimmed, bounded, safe. */
export const optionalText = (max: number) =>
  z
    .string(FieldError.invalidType)
    .trim()
    .max(max, { error: FieldError.tooLong, abort: true })
    .refine((v) => !hasUnsafeText(v), { error: FieldError.invalidCharacters, abort: true });

/** A text of one line that may be left empty. */
export const optionalLine = (max: number) =>
  optionalText(max).refine((v) => !lineBreak.test(v), {
    error: FieldError.invalidCharacters,
    abort: true,
  });
