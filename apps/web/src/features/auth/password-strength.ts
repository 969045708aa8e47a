import {
  foldForComparison,
  passwordProblems,
  type TPasswordContext,
  type TPasswordProblem,
} from '@portal/contract/password-rules';

/**
 * 0: the server will refuse it (a rule is broken); 1 weak; 2 fair; 3 good; 4 strong. A small
 * heuristic rather than zxcvbn-ts: with its dictionaries it would add ~237 KB of gzipped JavaScript
 * to the reset screen (this adds ~1 KB), while the server refuses the leaked passwords anyway.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

export type PasswordStrength = { score: StrengthScore; problems: TPasswordProblem[] };

/** Rows of Spanish and English keyboards and the digits: neighbours on them are a sequence. */
const keyboardRows = [
  '1234567890',
  'qwertyuiop',
  'asdfghjklñ',
  'zxcvbnm',
  'abcdefghijklmnopqrstuvwxyz',
];

/** Bases of the most common passwords: inside a password each counts as about one character. */
const commonBases = [
  'password',
  'contrasena',
  'contrasenya',
  'qwerty',
  'azerty',
  'admin',
  'welcome',
  'bienvenido',
  'iloveyou',
  'tequiero',
  'teamo',
  'letmein',
  'monkey',
  'dragon',
  'princesa',
  'princess',
  'futbol',
  'football',
  'barcelona',
  'madrid',
  'hola',
  'secret',
  'changeme',
];

const isNeighbour = (a: string, b: string) =>
  keyboardRows.some((row) => {
    const i = row.indexOf(a);
    return i >= 0 && (row[i + 1] === b || row[i - 1] === b);
  });

/** The characters that add something: a repeat or a step along a keyboard row adds almost nothing. */
function effectiveLength(password: string): number {
  const chars = [...password.toLowerCase()];
  let length = 0;
  for (let i = 0; i < chars.length; i++) {
    const previous = chars[i - 1];
    const current = chars[i] ?? '';
    const repeatOrStep =
      previous !== undefined && (previous === current || isNeighbour(previous, current));
    length += repeatOrStep ? 0.25 : 1;
  }
  const folded = foldForComparison(password);
  for (const base of commonBases) if (folded.includes(base)) length -= base.length - 1;
  return Math.max(0, length);
}

/** Size of the alphabet the password draws from. */
function alphabetSize(password: string): number {
  let size = 0;
  if (/[a-zñ]/.test(password)) size += 27;
  if (/[A-ZÑ]/.test(password)) size += 27;
  if (/\d/.test(password)) size += 10;
  if (/[^\p{L}\p{N}]/u.test(password)) size += 33;
  // Letters beyond the Spanish alphabet (accents, other scripts) widen it further.
  if (/\p{L}/u.test(password.replace(/[a-zA-ZñÑ]/g, ''))) size += 40;
  return Math.max(size, 1);
}

/** The strength the meter shows: the rules first, then an estimate of the guessing work (bits). */
export function estimatePasswordStrength(
  password: string,
  context: TPasswordContext,
): PasswordStrength {
  const problems = passwordProblems(password, context);
  if (problems.length > 0) return { score: 0, problems };
  const bits = effectiveLength(password) * Math.log2(alphabetSize(password));
  const score: StrengthScore = bits < 35 ? 1 : bits < 55 ? 2 : bits < 80 ? 3 : 4;
  return { score, problems };
}
