import { describe, expect, it } from 'vitest';
import { emailPattern as contractEmailPattern } from '@portal/contract/common';
import {
  emailPattern,
  validateEmail,
  validateLogin,
  validateRecovery,
  validateReset,
} from './validation';

describe('validation (spec §5)', () => {
  it('checks an e-mail: required first, then the simple pattern', () => {
    expect(validateEmail('')).toBe('required');
    expect(validateEmail('   ')).toBe('required');
    expect(validateEmail('ana')).toBe('invalid_email');
    expect(validateEmail('ana@demo')).toBe('invalid_email');
    expect(validateEmail('ana @demo.test')).toBe('invalid_email');
    expect(validateEmail(`${'a'.repeat(250)}@b.es`)).toBe('invalid_email');
    expect(validateEmail('  ana@demo.test ')).toBeUndefined();
  });

  it('login: e-mail required and well formed, password required', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'required',
      password: 'required',
    });
    expect(validateLogin({ email: 'x', password: 'p' })).toEqual({ email: 'invalid_email' });
    expect(validateLogin({ email: 'a@b.es', password: ' ' })).toEqual({});
  });

  it('recovery: the e-mail alone', () => {
    expect(validateRecovery({ email: '' })).toEqual({ email: 'required' });
    expect(validateRecovery({ email: 'nope' })).toEqual({ email: 'invalid_email' });
    expect(validateRecovery({ email: 'a@b.es' })).toEqual({});
  });

  it('reset: both required, at least 8 characters, the confirmation matches', () => {
    expect(validateReset({ password: '', confirmation: '' })).toEqual({
      password: 'required',
      confirmation: 'required',
    });
    expect(validateReset({ password: 'short1!', confirmation: 'short1!' })).toEqual({
      password: 'too_short',
    });
    expect(validateReset({ password: 'longenough', confirmation: 'longenougH' })).toEqual({
      confirmation: 'mismatch',
    });
    expect(validateReset({ password: '12345678', confirmation: '12345678' })).toEqual({});
  });

  it("reset: neither the e-mail nor the organisation's name inside the password", () => {
    const context = { email: 'laura@demo.test', organisationNames: ['Club Deportivo Las Encinas'] };
    const both = (password: string) => validateReset({ password, confirmation: password }, context);
    expect(both('Laura-2026-xyz')).toEqual({ password: 'password_contains_email' });
    expect(both('las-ENCINAS-2026')).toEqual({ password: 'password_contains_name' });
    expect(both('Tres-tigres-tristes')).toEqual({});
  });
});

describe('the e-mail pattern', () => {
  it('is the contract’s, kept here so that /login loads no contract code', () => {
    expect(emailPattern.source).toBe(contractEmailPattern.source);
    expect(validateEmail('a,b@evil.com')).toBe('invalid_email');
  });
});
