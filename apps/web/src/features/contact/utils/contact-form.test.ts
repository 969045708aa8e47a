import { ZContactRequest } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  contactFailureOf,
  emptyContact,
  errorsFromServer,
  firstInvalid,
  maxLengths,
  validateContact,
} from './contact-form';

const filled = {
  name: 'Laura',
  company: 'Particular',
  subject: 'Horario de agosto',
  message: '¿Abrís en agosto?',
  acceptPrivacy: true,
};

describe('validateContact (spec §5 "Contact")', () => {
  it('asks for every text and the privacy box', () => {
    expect(validateContact(emptyContact)).toEqual({
      name: 'required',
      company: 'required',
      subject: 'required',
      message: 'required',
      acceptPrivacy: 'privacy_required',
    });
    expect(validateContact(filled)).toEqual({});
  });

  it('trims: spaces alone are empty', () => {
    expect(validateContact({ ...filled, name: '   ', message: '\n\t ' })).toEqual({
      name: 'required',
      message: 'required',
    });
  });

  it('refuses a text longer than its limit, counted after trimming', () => {
    const max = maxLengths.message;
    expect(validateContact({ ...filled, message: 'x'.repeat(max + 1) })).toEqual({
      message: 'too_long',
    });
    expect(validateContact({ ...filled, message: ` ${'x'.repeat(max)} ` })).toEqual({});
  });

  it('has the limits and codes of the contract', () => {
    for (const [field, max] of Object.entries(maxLengths)) {
      const at = ZContactRequest.safeParse({ ...filled, [field]: 'x'.repeat(max) });
      expect(at.success, field).toBe(true);
      const over = ZContactRequest.safeParse({ ...filled, [field]: 'x'.repeat(max + 1) });
      expect(
        over.error?.issues.map((i) => i.message),
        field,
      ).toEqual(['too_long']);
      expect(validateContact({ ...filled, [field]: 'x'.repeat(max + 1) })).toEqual({
        [field]: 'too_long',
      });
    }
    const empty = ZContactRequest.safeParse({ ...filled, subject: ' ', acceptPrivacy: false });
    expect(empty.error?.issues.map((i) => [i.path[0], i.message])).toEqual([
      ['subject', 'required'],
      ['acceptPrivacy', 'privacy_required'],
    ]);
  });

  it('refuses what every call refuses (a control or broken character), as the server does', () => {
    for (const bad of ['Laura\u0000', 'x\u0007y', 'Hola \ud800']) {
      expect(validateContact({ ...filled, subject: bad })).toEqual({
        subject: 'invalid_characters',
      });
    }
    // Line breaks and tabs are text; an emoji is a whole character.
    expect(validateContact({ ...filled, message: 'Hola,\r\n\tgracias 😀' })).toEqual({});
    expect(errorsFromServer({ name: ['invalid_characters'] })).toEqual({
      name: 'invalid_characters',
    });
  });

  it('focuses the first invalid field in the order of the form', () => {
    expect(firstInvalid({ message: 'required', company: 'required' })).toBe('company');
    expect(firstInvalid({})).toBeUndefined();
  });
});

describe('answers of the server', () => {
  it('puts a 422 on its fields; an unknown code reads as invalid', () => {
    expect(
      errorsFromServer({
        message: ['too_long'],
        acceptPrivacy: ['privacy_required'],
        subject: ['something_new'],
        other: ['required'],
      }),
    ).toEqual({ message: 'too_long', acceptPrivacy: 'privacy_required', subject: 'invalid' });
    expect(errorsFromServer(undefined)).toEqual({});
  });

  it('tells a rate limit (with the wait), no connection and anything else apart', () => {
    const limited = new ApiError(429, 'rate_limited');
    limited.retryAfterSeconds = 3001;
    expect(contactFailureOf(limited)).toEqual({ key: 'rateLimited', minutes: 51 });
    expect(contactFailureOf(new ApiError(429, 'rate_limited'))).toEqual({
      key: 'rateLimited',
      minutes: undefined,
    });
    expect(contactFailureOf(new ApiError(0, 'network_error'))).toEqual({ key: 'network' });
    expect(contactFailureOf(new ApiError(422, 'validation_failed'))).toEqual({ key: 'invalid' });
    expect(contactFailureOf(new ApiError(500, 'internal_error'))).toEqual({ key: 'generic' });
    expect(contactFailureOf(new Error('boom'))).toEqual({ key: 'generic' });
  });
});
