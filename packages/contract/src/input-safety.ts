// Type-only: the web app's forms import these checks, and errors.ts would bring zod with it.
import type { TFieldError } from './errors.ts';

/**
 * Rules every value of every request obeys, whatever its field (body, query string, path): the
 * server checks them once for every call (apps/api/src/plugins/app/input-guard.ts), after the
 * call's own schema. They keep out what PostgreSQL refuses or silently mangles, and what no person
 * types: a NUL byte (text and jsonb refuse it: 22021, 22P05), other control characters, lone UTF-16
 * surrogates (not text: they reach the database as U+FFFD), a negative zero and numbers beyond the
 * integers a double holds exactly (no column or amount of the portal comes near them).
 */

/** C0 controls but tab, line feed and carriage return; DEL; a surrogate not part of a pair. */
const unsafeText =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `value` holds a character no field accepts (see above). */
export function hasUnsafeText(value: string): boolean {
  return unsafeText.test(value);
}

/** The code of a number no field accepts, or undefined. */
export function unsafeNumberCode(value: number): TFieldError | undefined {
  if (!Number.isFinite(value)) return 'invalid_type';
  if (Object.is(value, -0)) return 'invalid_format';
  if (value > Number.MAX_SAFE_INTEGER) return 'too_big';
  if (value < -Number.MAX_SAFE_INTEGER) return 'too_small';
  return undefined;
}

/** Nesting deeper than this is refused whole (no request of the contract nests beyond 4). */
const maxDepth = 32;

/**
 * Every place in `value` that breaks the rules above, keyed like the 422's `errors` (dotted path,
 * `context` for the value itself); empty when all is well. Object keys are checked like strings.
 */
export function findUnsafeInput(value: unknown, context = 'body'): Record<string, TFieldError[]> {
  const errors: Record<string, TFieldError[]> = {};
  const add = (path: string, code: TFieldError) => {
    const list = (errors[path || context] ??= []);
    if (!list.includes(code)) list.push(code);
  };
  const walk = (v: unknown, path: string, depth: number) => {
    if (typeof v === 'string') {
      if (hasUnsafeText(v)) add(path, 'invalid_characters');
    } else if (typeof v === 'number') {
      const code = unsafeNumberCode(v);
      if (code) add(path, code);
    } else if (v && typeof v === 'object') {
      if (depth >= maxDepth) return add(path, 'too_big');
      for (const [key, item] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        if (hasUnsafeText(key)) add(path, 'invalid_characters');
        else walk(item, at, depth + 1);
      }
    }
  };
  walk(value, '', 0);
  return errors;
}
