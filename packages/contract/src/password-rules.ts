/**
 * The password rules the API enforces and the web app shows as the user types, written once. Free
 * of zod and of Node, so that the reset screen's chunk can import it. The list of common passwords
 * is the API's alone (apps/api/src/modules/auth/common-passwords.ts): too large for the browser.
 */

export const passwordMinLength = 8;

/** Field codes of a refused password (the web app words each one). */
export const PasswordProblem = {
  tooShort: 'too_short',
  common: 'password_common',
  containsEmail: 'password_contains_email',
  containsName: 'password_contains_name',
} as const;
export type TPasswordProblem = (typeof PasswordProblem)[keyof typeof PasswordProblem];

/** What a password is compared with: the account's e-mail and the organisation's names. */
export type TPasswordContext = { email?: string; organisationNames?: readonly string[] };

/** Lower case, accents off, letters and digits only: "Gimnàs Demo-Fitness" -> "gimnasdemofitness". */
export function foldForComparison(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The e-mail's local part ("laura.garcia") and its pieces of 4+ characters ("laura", "garcia"):
 * a password must contain none of them.
 */
export function emailFragments(email: string): string[] {
  const local = email.split('@', 1)[0] ?? '';
  const pieces = local.split(/[._+-]/).map(foldForComparison);
  return unique([foldForComparison(local), ...pieces.filter((p) => p.length >= 4)], 3);
}

/**
 * An organisation's name ("Club Deportivo Las Encinas") and its words of 5+ letters ("deportivo",
 * "encinas"): shorter words ("club", "las") are too common to refuse.
 */
export function nameFragments(name: string): string[] {
  const words = name.split(/\s+/).map(foldForComparison);
  return unique([foldForComparison(name), ...words.filter((w) => w.length >= 5)], 3);
}

function unique(fragments: string[], minLength: number): string[] {
  return [...new Set(fragments.filter((f) => f.length >= minLength))];
}

/**
 * The problems of a new password other than being common (in the order shown): fewer than 8
 * characters, the e-mail inside it, the organisation's name inside it.
 */
export function passwordProblems(password: string, context: TPasswordContext): TPasswordProblem[] {
  const problems: TPasswordProblem[] = [];
  // Characters as the user sees them (code points), not UTF-16 units.
  if ([...password].length < passwordMinLength) problems.push(PasswordProblem.tooShort);
  const folded = foldForComparison(password);
  const contains = (fragments: string[]) => fragments.some((f) => folded.includes(f));
  if (context.email && contains(emailFragments(context.email))) {
    problems.push(PasswordProblem.containsEmail);
  }
  if (context.organisationNames?.some((name) => contains(nameFragments(name)))) {
    problems.push(PasswordProblem.containsName);
  }
  return problems;
}
