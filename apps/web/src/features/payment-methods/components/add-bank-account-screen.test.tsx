import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import { demoCreditor, renderScreen, sampleAccount, signIn, stubApi } from '../testing/fixtures';
import { AddBankAccountScreen } from './add-bank-account-screen';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' });
const errorOf = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .filter((text) => text && !text.startsWith('Empieza') && !text.startsWith('Un nombre'))
    .join(' ');

describe('add a bank account (spec §2 "Add bank account", §5)', () => {
  it('requires every field, then clears each error as the customer types', async () => {
    const calls = stubApi(() => undefined);
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    const iban = field('IBAN');
    expect(errorOf(iban)).toBe(es.validation.required);
    expect(errorOf(field('Titular'))).toBe(es.validation.required);
    expect(errorOf(field('NIF/NIE/CIF del titular'))).toBe(es.validation.required);
    expect(errorOf(field('Entidad'))).toBe(es.validation.required);
    expect(iban.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(iban));
    expect(calls).toHaveLength(0);

    await userEvent.type(field('Titular'), 'L');
    expect(errorOf(field('Titular'))).toBe('');
    expect(field('Titular').getAttribute('aria-invalid')).toBeNull();
    // The others keep theirs until typed in.
    expect(errorOf(iban)).toBe(es.validation.required);
  });

  it('refuses a wrong IBAN and a wrong NIF, and takes the entity from a right IBAN', async () => {
    const calls = stubApi(() => undefined);
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await userEvent.type(field('IBAN'), 'ES91 2100 0418 4502 0005 1333');
    await userEvent.type(field('Titular'), 'Laura García');
    await userEvent.type(field('NIF/NIE/CIF del titular'), '12345678A');
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    expect(errorOf(field('IBAN'))).toBe(es.validation.invalidIban);
    expect(errorOf(field('NIF/NIE/CIF del titular'))).toBe(es.validation.invalidNif);
    expect(calls).toHaveLength(0);

    await userEvent.clear(field('IBAN'));
    await userEvent.type(field('IBAN'), 'ES91 2100 0418 4502 0005 1332');
    const entity = field('Entidad') as HTMLInputElement;
    expect(entity.value).toBe('CaixaBank');
    expect(entity.readOnly).toBe(true);
  });

  it('says the customer keeps the most payment methods allowed, with the number', async () => {
    stubApi(() => ({ status: 409, json: { code: 'payment_method_limit', message: 'x' } }));
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await userEvent.type(field('IBAN'), 'ES91 2100 0418 4502 0005 1332');
    await userEvent.type(field('Titular'), 'Laura García');
    await userEvent.type(field('NIF/NIE/CIF del titular'), '12345678Z');
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      es.limits.paymentMethods.replace('{{max}}', '10'),
    );
  });

  it('saves a valid account and opens it, "No verificada"', async () => {
    const calls = stubApi((call) =>
      call.method === 'POST' && call.path === '/payment-methods/bank-account'
        ? { status: 201, json: { method: { ...sampleAccount, id: 'new-1', status: 'unverified' } } }
        : undefined,
    );
    const { router } = await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await userEvent.type(field('IBAN'), 'es91 2100 0418 4502 0005 1332');
    await userEvent.type(field('Titular'), ' Laura García ');
    await userEvent.type(field('NIF/NIE/CIF del titular'), '12345678z');
    await userEvent.type(field(es.fields.alias), 'Casa');
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bank-account'));
    expect(router.state.location.search).toBe('?id=new-1');
    expect(calls[0]?.body).toEqual({
      iban: 'es91 2100 0418 4502 0005 1332',
      holder: 'Laura García',
      nif: '12345678z',
      alias: 'Casa',
    });
  });

  it("shows the server's field errors under the fields", async () => {
    stubApi(() => ({
      status: 422,
      json: { code: 'validation_failed', message: 'x', errors: { nif: ['invalid_nif'] } },
    }));
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await userEvent.type(field('IBAN'), 'ES91 2100 0418 4502 0005 1332');
    await userEvent.type(field('Titular'), 'Laura');
    await userEvent.type(field('NIF/NIE/CIF del titular'), '12345678Z');
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    await waitFor(() =>
      expect(errorOf(field('NIF/NIE/CIF del titular'))).toBe(es.validation.invalidNif),
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the SEPA mandate signed with the account (issue 23, item 6)', () => {
  const withCreditor = { creditor: demoCreditor, mandates: [] };
  const fill = async () => {
    await userEvent.type(field('IBAN'), 'ES91 2100 0418 4502 0005 1332');
    await userEvent.type(field('Titular'), 'Laura García');
    await userEvent.type(field('NIF/NIE/CIF del titular'), '12345678Z');
  };

  it('shows the mandate with the creditor, the debtor and IBAN typed, and "Pago recurrente"', async () => {
    stubApi(() => undefined, withCreditor);
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    const mandate = await screen.findByRole('region', { name: es.mandate.title });
    expect(mandate.textContent).toContain(demoCreditor.name);
    expect(mandate.textContent).toContain(demoCreditor.address);
    expect(mandate.textContent).toContain(demoCreditor.identifier);
    expect(mandate.textContent).toContain(es.mandate.recurrent);
    expect(mandate.textContent).toContain(es.mandate.legal);
    await fill();
    expect(mandate.textContent).toContain('Laura García');
    expect(mandate.textContent).toContain('ES91 2100 0418 4502 0005 1332');
  });

  it('sends nothing without the acceptance, then sends it with the language', async () => {
    const calls = stubApi(
      (call) =>
        call.method === 'POST'
          ? { status: 201, json: { method: { ...sampleAccount, id: 'new-2' } } }
          : undefined,
      withCreditor,
    );
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    await screen.findByRole('region', { name: es.mandate.title });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    const box = screen.getByRole('checkbox', {
      name: es.mandate.accept.replace('{{creditor}}', demoCreditor.name),
    });
    expect(errorOf(box)).toContain(es.mandate.required);
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(calls).toHaveLength(0);

    await userEvent.click(box);
    expect(errorOf(box)).not.toContain(es.mandate.required);
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ mandate_accepted: true, mandate_language: 'es' });
  });

  it('says mandates are not available where the tenant signs none, and saves without one', async () => {
    const calls = stubApi((call) =>
      call.method === 'POST'
        ? { status: 201, json: { method: { ...sampleAccount, id: 'new-3' } } }
        : undefined,
    );
    await renderScreen(<AddBankAccountScreen />, '/add-bank-account');
    expect(await screen.findByText(es.mandate.unavailable)).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    await fill();
    await userEvent.click(screen.getByRole('button', { name: es.addBankAccount.submit }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).not.toHaveProperty('mandate_accepted');
  });
});
