import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitToGateway } from './gateway-form';

const params = {
  Ds_SignatureVersion: 'HMAC_SHA512_V2',
  Ds_MerchantParameters: 'eyJEc19NZXJjaGFudF9BbW91bnQiOiIwIn0=',
  Ds_Signature: 'c2lnbmF0dXJl',
};

afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

describe('handing the browser to the card gateway', () => {
  it('posts a hidden form with only the signed fields, then removes it', () => {
    vi.useFakeTimers();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    submitToGateway('http://localhost:3180/sis/realizarPago', params);
    const form = document.querySelector('form');
    expect(form?.method.toLowerCase()).toBe('post');
    expect(form?.action).toBe('http://localhost:3180/sis/realizarPago');
    const inputs = [...(form?.querySelectorAll('input') ?? [])];
    expect(Object.fromEntries(inputs.map((i) => [i.name, i.value]))).toEqual(params);
    expect(inputs.every((i) => i.type === 'hidden')).toBe(true);
    expect(submit).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(document.querySelector('form')).toBeNull();
  });

  it('refuses an address that is not http(s)', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    expect(() => submitToGateway('javascript:alert(1)', params)).toThrow();
    expect(submit).not.toHaveBeenCalled();
  });
});
