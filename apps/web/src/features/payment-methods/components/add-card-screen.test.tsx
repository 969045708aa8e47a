import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import { renderScreen, signIn, stubApi } from '../testing/fixtures';
import { AddCardScreen } from './add-card-screen';

const started = {
  success: true,
  payment_id: 'a1',
  redsys_params: {
    Ds_SignatureVersion: 'HMAC_SHA512_V2',
    Ds_MerchantParameters: 'e30=',
    Ds_Signature: 'c2ln',
  },
  url: 'http://localhost:3180/sis/realizarPago',
  message: 'Card tokenisation started',
};

beforeEach(signIn);
afterEach(() => {
  vi.unstubAllGlobals();
  document.querySelectorAll('form[hidden]').forEach((form) => form.remove());
});

describe('add a card (spec §2 "Add card", PCI DSS SAQ A)', () => {
  it('asks only for an alias: no card number, expiry or CVC field', async () => {
    stubApi(() => undefined);
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    const inputs = [...document.querySelectorAll('input')];
    expect(inputs.map((input) => input.type)).toEqual(['text', 'checkbox']);
    expect(screen.getByLabelText(es.fields.alias)).toBe(inputs[0]);
    expect(document.querySelector('[autocomplete^="cc-"]')).toBeNull();
  });

  it('starts the tokenisation and posts its signed form to the gateway', async () => {
    const calls = stubApi((call) =>
      call.method === 'POST' && call.path === '/payment-methods/card'
        ? { json: started }
        : undefined,
    );
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    await userEvent.type(screen.getByLabelText(es.fields.alias), '  Personal ');
    await userEvent.click(screen.getByRole('button', { name: es.addCard.submit }));
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(calls[0]?.body).toEqual({ alias: 'Personal', language: 'es' });
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.action).toBe(started.url);
    expect(
      Object.fromEntries([...form.querySelectorAll('input')].map((i) => [i.name, i.value])),
    ).toEqual(started.redsys_params);
    // Leaving for the gateway: the button keeps saying so.
    expect(screen.getByRole('button', { name: es.addCard.redirecting })).toBeTruthy();
  });

  it('says when cards cannot be added on this tenant', async () => {
    stubApi(() => ({ status: 503, json: { code: 'payment_unavailable', message: 'x' } }));
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    await userEvent.click(screen.getByRole('button', { name: es.addCard.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(es.addCard.errors.unavailable);
    expect(screen.getByRole('button', { name: es.addCard.submit })).toBeTruthy();
  });

  it.each([
    ['payment_method_limit', es.limits.paymentMethods.replace('{{max}}', '10')],
    ['card_attempt_limit', es.limits.cardAttempts.replace('{{max}}', '3')],
  ])('says which cap a 409 %s is, with its number', async (code, text) => {
    stubApi(() => ({ status: 409, json: { code, message: 'x' } }));
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    await userEvent.click(screen.getByRole('button', { name: es.addCard.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(text);
  });

  it('refuses a control character in the alias before asking the server', async () => {
    const calls = stubApi(() => undefined);
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    await userEvent.type(screen.getByLabelText(/Alias/, { selector: 'input' }), 'Casa');
    // userEvent cannot type a control character: paste one.
    await userEvent.paste('\u0007');
    await userEvent.click(screen.getByRole('button', { name: es.addCard.submit }));
    expect(await screen.findByText(es.validation.invalidCharacters)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('the main-method checkbox opens the modal and never becomes checked', async () => {
    const calls = stubApi(() => undefined);
    await renderScreen(<AddCardScreen />, '/añadir-tarjeta');
    const checkbox = screen.getByRole('checkbox', { name: es.mainMethod.checkbox });
    await userEvent.click(checkbox);
    const dialog = await screen.findByRole('dialog', { name: es.mainMethod.dialog.title });
    expect(dialog.textContent).toContain('el equipo de Club Demo la revisa');
    expect(dialog.textContent).toContain(es.mainMethod.dialog.afterSave);
    expect((checkbox as HTMLInputElement).checked).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: es.common.understood }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((checkbox as HTMLInputElement).checked).toBe(false);
    expect(calls).toHaveLength(0);
  });
});
