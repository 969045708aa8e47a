/**
 * Passwords of 8+ characters that top the public leaked-password lists (incl. Spanish ones).
 * A reset to one of these is refused as weak (spec §8 weakPassword).
 */
const list = `password 12345678 123456789 1234567890 qwertyuiop 11111111 00000000 iloveyou password1
password123 passw0rd contraseña contrasena contraseña1 contrasena1 abcd1234 qwerty123 qwerty12
admin123 welcome1 football baseball sunshine princess superman whatever trustno1 starwars
87654321 12341234 asdfghjk zxcvbnm1 q1w2e3r4 1q2w3e4r 1qaz2wsx barcelona realmadrid tequiero
teamo123 letmein1 monkey123 dragon12 master12 11223344 12121212 123123123 qwertyui 147258369
abc12345 aa123456 password! iloveyou1 jesus123 mariposa11 azerty123 qazwsxedc 1234qwer
demo1234 changeme secret123 987654321 999999999 88888888 123qweasd`;

export const commonPasswords: ReadonlySet<string> = new Set(list.split(/\s+/).filter(Boolean));

export function isWeakPassword(password: string, email: string): boolean {
  const lower = password.toLowerCase();
  return password.length < 8 || commonPasswords.has(lower) || lower === email.toLowerCase();
}
