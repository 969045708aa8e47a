import { describe, expect, it } from 'vitest';
import {
  emailFragments,
  foldForComparison,
  nameFragments,
  passwordMinLength,
  passwordProblems,
} from './password-rules.ts';

const context = {
  email: 'laura.garcia@demo.test',
  organisationNames: ['Club Deportivo Las Encinas', 'Gimnàs Sant Martí SL'],
};

describe('password rules', () => {
  it('folds case, accents and punctuation away before comparing', () => {
    expect(foldForComparison('Gimnàs Demo-Fitness ÑU')).toBe('gimnasdemofitnessnu');
  });

  it('takes the local part of the e-mail and its pieces of 4+ characters', () => {
    expect(emailFragments('laura.garcia@demo.test')).toEqual(['lauragarcia', 'laura', 'garcia']);
    expect(emailFragments('ab@x.es')).toEqual([]);
    expect(emailFragments('j.li+1@x.es')).toEqual(['jli1']);
  });

  it("takes the organisation's whole name and its words of 5+ letters", () => {
    expect(nameFragments('Club Deportivo Las Encinas')).toEqual([
      'clubdeportivolasencinas',
      'deportivo',
      'encinas',
    ]);
  });

  it('accepts a long password that contains neither', () => {
    expect(passwordProblems('Tres-tigres-tristes-77', context)).toEqual([]);
    expect(passwordProblems('x'.repeat(passwordMinLength), {})).toEqual([]);
  });

  it('refuses fewer than 8 characters, counted as the user sees them', () => {
    expect(passwordProblems('Ab1!xyz', context)).toEqual(['too_short']);
    // Four emoji are eight UTF-16 units, but four characters.
    expect(passwordProblems('😀😀😀😀', {})).toEqual(['too_short']);
  });

  it('refuses the e-mail inside the password, whatever the case and accents', () => {
    for (const password of ['Laura.Garcia.2026', 'xxGARCÍAxx99', 'mi-laura-1234']) {
      expect(passwordProblems(password, context), password).toEqual(['password_contains_email']);
    }
  });

  it("refuses the organisation's name or one of its long words inside the password", () => {
    for (const password of [
      'ClubDeportivoLasEncinas',
      'encinas-2026!',
      'Sant-Marti-99',
      'GIMNAS sant marti',
    ]) {
      expect(passwordProblems(password, context), password).toContain('password_contains_name');
    }
    // Short words of the name are common words, not the name.
    expect(passwordProblems('club-las-2026-xyz', context)).toEqual([]);
  });

  it('lists every problem at once, in the order shown', () => {
    expect(passwordProblems('laura', { ...context, organisationNames: ['Laura SA'] })).toEqual([
      'too_short',
      'password_contains_email',
      'password_contains_name',
    ]);
  });
});
