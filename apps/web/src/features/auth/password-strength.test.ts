import { describe, expect, it } from 'vitest';
import { estimatePasswordStrength } from './password-strength';

const context = { email: 'cliente@demo.test', organisationNames: ['Gimnasio Demo Fitness'] };
const score = (password: string) => estimatePasswordStrength(password, context).score;

describe('password strength estimate', () => {
  it('scores 0, with the reason, what the server refuses by rule', () => {
    expect(estimatePasswordStrength('abc', context)).toEqual({ score: 0, problems: ['too_short'] });
    expect(estimatePasswordStrength('Cliente-2026', context).problems).toEqual([
      'password_contains_email',
    ]);
    expect(estimatePasswordStrength('fitness-2026!', context).problems).toEqual([
      'password_contains_name',
    ]);
    expect(score('Cliente-2026')).toBe(0);
  });

  it('calls repeats, keyboard runs and common bases weak, however long', () => {
    for (const password of [
      'aaaaaaaaaaaa',
      '12345678',
      'abcdefgh',
      'qwertyuiop',
      'password123',
      'Contraseña1',
    ]) {
      expect(score(password), password).toBe(1);
    }
  });

  it('grows with length and variety', () => {
    expect(score('Demo1234!')).toBe(2);
    expect(score('Xk9#mP2$vL')).toBe(3);
    expect(score('Tres-tigres-tristes-77')).toBe(4);
    expect(score('mi perro se llama toby')).toBe(4);
    const ladder = ['perro', 'perro-gato', 'perro-gato-loro', 'perro-gato-loro-pez-2026'].map(
      score,
    );
    expect([...ladder].sort()).toEqual(ladder);
  });
});
