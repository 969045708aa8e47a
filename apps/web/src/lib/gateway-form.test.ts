import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitToGateway } from './gateway-form';

const params = {
  Ds_SignatureVersion: 'HMAC_SHA512_V2',
  Ds_MerchantParameters: 'eyJEc19NZXJjaGFudF9BbW91bnQiOiI0NzIwIn0=',
  Ds_Signature: 'c2lnbmF0dXJl',
};

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('submitToGateway (spec §7 "/redsys/init-payment")', () => {
  it('posts a hidden form with the three fields, then removes it after 100 ms', () => {
    vi.useFakeTimers();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    submitToGateway('http://localhost:3180/sis/realizarPago', params);

    const form = document.querySelector('form');
    expect(form).not.toBeNull();
    expect(form?.method.toLowerCase()).toBe('post');
    expect(form?.action).toBe('http://localhost:3180/sis/realizarPago');
    expect(form?.hidden).toBe(true);
    const fields = Object.fromEntries(
      [...(form?.querySelectorAll('input') ?? [])].map((input) => [input.name, input.value]),
    );
    expect(fields).toEqual(params);
    expect([...(form?.querySelectorAll('input') ?? [])].every((i) => i.type === 'hidden')).toBe(
      true,
    );
    expect(submit).toHaveBeenCalledTimes(1);

    vi.advanceTimersByTime(99);
    expect(document.querySelector('form')).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(document.querySelector('form')).toBeNull();
  });

  it('refuses an address that is not http(s)', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    expect(() => submitToGateway('javascript:alert(1)', params)).toThrow();
    expect(submit).not.toHaveBeenCalled();
    expect(document.querySelector('form')).toBeNull();
  });
});
