import { describe, expect, it } from 'vitest';
import { commonPasswords, isCommonPassword, newPasswordProblems } from './common-passwords.ts';

describe('common passwords', () => {
  it('holds the leaked-password list of 8+ characters, not a handful', async () => {
    const list = await commonPasswords();
    expect(list.size).toBeGreaterThan(17_000);
    for (const p of list) expect(p.length).toBeGreaterThanOrEqual(8);
  });

  it.each([
    'password',
    'Password1',
    '12345678',
    'qwertyuiop',
    'iloveyou',
    'Contraseña',
    'TeQuiero1',
    'barcelona',
  ])('refuses %s, whatever the case', async (password) => {
    expect(await isCommonPassword(password)).toBe(true);
  });

  it('lets an uncommon password through', async () => {
    expect(await isCommonPassword('Tres-tigres-tristes-77')).toBe(false);
    expect(await isCommonPassword('Demo1234!')).toBe(false);
  });

  it('adds being common to the shared rules', async () => {
    expect(await newPasswordProblems('password123', {})).toEqual(['password_common']);
    expect(
      await newPasswordProblems('segundo1', { email: 'segundo@demo.test', organisationNames: [] }),
    ).toEqual(['password_contains_email']);
    expect(await newPasswordProblems('Tres-tigres-tristes-77', {})).toEqual([]);
  });
});
