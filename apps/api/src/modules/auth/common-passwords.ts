import {
  PasswordProblem,
  passwordProblems,
  type TPasswordContext,
  type TPasswordProblem,
} from '@portal/contract';

/**
 * Spanish and Catalan favourites that the (mostly English) leaked-password list below lacks.
 * Lower case; only 8+ characters matter (shorter ones are refused as too short anyway).
 */
const spanish = `contraseña contrasena contraseña1 contrasena1 contraseña123 contrasena123
contrasenya contrasenya1 tequiero tequiero1 teamo123 teamo1234 barcelona barcelona1 realmadrid
realmadrid1 madrid123 sevilla123 valencia1 espana123 españa123 mariposa mariposa1 mariposa11
princesa princesa1 hola1234 holahola 12345678a bienvenido bienvenido1 futbol123 1234abcd
abcd1234 qwerty123 asdf1234 demo1234 changeme secret123 admin123 welcome1 password!`;

let loaded: Promise<ReadonlySet<string>> | undefined;

/**
 * The most common passwords of the public leaked-password lists: zxcvbn-ts's `passwords-common`
 * (about 49,000, ranked by frequency across leaks; the 18,000 of 8+ characters are kept), plus the
 * Spanish ones above. Compared case-insensitively and exactly (NIST SP 800-63B 5.1.1.2: refuse
 * values "known to be commonly-used, expected, or compromised"). Read on first use, not at start:
 * only setting a password needs it.
 */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  loaded ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        [...dictionary['passwords-common'], ...spanish.split(/\s+/)]
          .map((p) => p.toLowerCase())
          .filter((p) => p.length >= 8),
      ),
  );
  return loaded;
}

export const isCommonPassword = async (password: string): Promise<boolean> =>
  (await commonPasswords()).has(password.toLowerCase());

/** Every rule a new password breaks (empty: it may be set). */
export async function newPasswordProblems(
  password: string,
  context: TPasswordContext,
): Promise<TPasswordProblem[]> {
  const problems = passwordProblems(password, context);
  if (await isCommonPassword(password)) problems.push(PasswordProblem.common);
  return problems;
}
