import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import {
  type ApiCall,
  renderScreen,
  sampleAccount,
  sampleCard,
  signIn,
  stubApi,
} from '../testing/fixtures';
import type { PaymentMethod } from '../utils/method-display';
import { BankAccountViewScreen } from './bank-account-view-screen';
import { CardViewScreen } from './card-view-screen';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

/** The API over a list the calls change, as the server would. */
function serveMethods(initial: PaymentMethod[]) {
  let methods = initial;
  const patch = (id: string, change: Partial<PaymentMethod>) => {
    methods = methods.map((m) => (m.id === id ? { ...m, ...change } : m));
    return methods.find((m) => m.id === id);
  };
  const calls: ApiCall[] = stubApi((call) => {
    const [, , id, action] = call.path.split('/');
    if (call.method === 'GET' && call.path === '/payment-methods') return { json: { methods } };
    if (call.method === 'PATCH' && id) {
      return { json: { method: patch(id, call.body as Partial<PaymentMethod>) } };
    }
    if (call.method === 'DELETE' && id) {
      methods = methods.filter((m) => m.id !== id);
      return { json: { count: 1 } };
    }
    if (call.method === 'POST' && id && action === 'main-request') {
      const before = methods.find((m) => m.id === id)?.pending_requests ?? [];
      patch(id, { pending_request: 'main_change', pending_requests: [...before, 'main_change'] });
      return { json: { request_id: 'r1', status: 'pending' } };
    }
    if (call.method === 'POST' && id && action === 'verification-request') {
      const before = methods.find((m) => m.id === id)?.pending_requests ?? [];
      patch(id, { pending_request: 'verification', pending_requests: [...before, 'verification'] });
      return { json: { request_id: 'r2', status: 'pending' } };
    }
    return undefined;
  });
  return calls;
}

describe('the view of one method', () => {
  it.each([
    ['no id', null],
    ['an unknown id', 'nope'],
    ["a bank account's id on the card view", 'pm-account'],
  ])('shows the not-found state for %s', async (_, id) => {
    serveMethods([sampleAccount, sampleCard]);
    await renderScreen(<CardViewScreen id={id} />, '/credit-card');
    expect(await screen.findByRole('heading', { name: es.notFound.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: es.common.backToList }).getAttribute('href')).toBe(
      '/metodos-de-pago',
    );
  });

  it("shows a card's data and edits its alias; cancel restores it", async () => {
    const calls = serveMethods([sampleCard]);
    await renderScreen(<CardViewScreen id="pm-card" />, '/credit-card?id=pm-card');
    expect(await screen.findByRole('heading', { level: 1, name: 'Mi tarjeta' })).toBeTruthy();
    const details = screen.getByRole('region', { name: es.cardView.details });
    expect(details.textContent).toContain('VISA');
    expect(details.textContent).toContain('12/30');
    expect(details.textContent).toContain('terminada en 0004');
    expect(details.textContent).not.toContain('454881');

    await userEvent.click(screen.getByRole('button', { name: es.common.edit }));
    const alias = screen.getByLabelText(es.fields.alias);
    expect(document.activeElement).toBe(alias);
    // A card's holder is the bank's: only the alias is editable.
    expect(screen.queryByLabelText(es.fields.holder)).toBeNull();
    await userEvent.clear(alias);
    await userEvent.type(alias, 'Otra');
    await userEvent.click(screen.getByRole('button', { name: es.common.cancel }));
    expect(screen.getByRole('heading', { level: 1, name: 'Mi tarjeta' })).toBeTruthy();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: es.common.edit }));
    await userEvent.clear(screen.getByLabelText(es.fields.alias));
    await userEvent.type(screen.getByLabelText(es.fields.alias), 'Personal');
    await userEvent.click(screen.getByRole('button', { name: es.common.saveChanges }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Personal' })).toBeTruthy();
    expect(screen.getByText(es.common.changesSaved)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/payment-methods/pm-card',
      body: { alias: 'Personal' },
    });
  });

  it('asks for the main-method change in the modal, then shows it pending', async () => {
    const calls = serveMethods([sampleAccount, sampleCard]);
    await renderScreen(<CardViewScreen id="pm-card" />, '/credit-card?id=pm-card');
    const checkbox = await screen.findByRole('checkbox', { name: es.mainMethod.checkbox });
    await userEvent.click(checkbox);
    const dialog = await screen.findByRole('dialog', { name: es.mainMethod.dialog.title });
    expect((checkbox as HTMLInputElement).checked).toBe(false);
    await userEvent.click(
      within(dialog).getByRole('button', { name: es.mainMethod.dialog.request }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      calls.some((c) => c.method === 'POST' && c.path === '/payment-methods/pm-card/main-request'),
    ).toBe(true);
    expect(await screen.findByText(es.mainMethod.pending)).toBeTruthy();
    expect(screen.getByText(es.badges.mainRequested)).toBeTruthy();
    const after = screen.getByRole('checkbox', {
      name: es.mainMethod.checkbox,
    }) as HTMLInputElement;
    expect(after.checked).toBe(false);
    expect(after.disabled).toBe(true);
  });

  it('the main method says so and its checkbox is checked', async () => {
    serveMethods([sampleAccount]);
    await renderScreen(<BankAccountViewScreen id="pm-account" />, '/bank-account?id=pm-account');
    const checkbox = (await screen.findByRole('checkbox', {
      name: es.mainMethod.checkbox,
    })) as HTMLInputElement;
    expect(checkbox.checked).toBe(true);
    expect(checkbox.disabled).toBe(true);
    expect(screen.getByText(es.mainMethod.isMain)).toBeTruthy();
  });

  it('an unverified account asks for its activation, then waits for the review', async () => {
    const account = {
      ...sampleAccount,
      id: 'pm-new',
      is_main: false,
      status: 'unverified' as const,
    };
    const calls = serveMethods([account]);
    await renderScreen(<BankAccountViewScreen id="pm-new" />, '/bank-account?id=pm-new');
    expect(await screen.findByText('No verificada')).toBeTruthy();
    const details = screen.getByRole('region', { name: es.bankAccountView.details });
    expect(details.textContent).toContain('ES38 2100 0418 4045 0200 0514');
    expect(details.textContent).toContain('12345678Z');
    expect(details.textContent).toContain('CaixaBank');
    await userEvent.click(screen.getByRole('button', { name: es.bankAccountView.activate }));
    expect(await screen.findByText(es.bankAccountView.activationPending)).toBeTruthy();
    expect(screen.queryByRole('button', { name: es.bankAccountView.activate })).toBeNull();
    expect(calls.some((c) => c.path === '/payment-methods/pm-new/verification-request')).toBe(true);
  });

  /*
   * The provider verified the account meanwhile (its review of another request, its ERP's batch)
   * while the screen still shows it "No verificada": the API answers 409 `conflict` "Nothing to
   * verify". Not a failure to retry for ever: the method is read again and shows as it is now.
   */
  it('shows an account the provider already verified as it is, not "could not ask, try again"', async () => {
    const unverified: PaymentMethod = { ...sampleAccount, status: 'unverified', is_main: false };
    let verified = false;
    stubApi((call) => {
      if (call.method === 'GET' && call.path === '/payment-methods') {
        return {
          json: { methods: [verified ? { ...unverified, status: 'active' } : unverified] },
        };
      }
      if (
        call.method === 'POST' &&
        call.path === '/payment-methods/pm-account/verification-request'
      ) {
        return { status: 409, json: { code: 'conflict', message: 'Nothing to verify' } };
      }
      return undefined;
    });
    await renderScreen(<BankAccountViewScreen id="pm-account" />, '/bank-account?id=pm-account');
    const activate = await screen.findByRole('button', { name: es.bankAccountView.activate });
    // Meanwhile the provider verifies it.
    verified = true;
    await userEvent.click(activate);

    await waitFor(() =>
      expect(screen.queryByRole('button', { name: es.bankAccountView.activate })).toBeNull(),
    );
    expect(screen.queryByText(es.bankAccountView.activateError)).toBeNull();
    expect(screen.queryByText(es.bankAccountView.activationPending)).toBeNull();
    expect(screen.queryByText('No verificada')).toBeNull();
  });

  it('shows a method that became the main one meanwhile as the main one, no error (409)', async () => {
    const card: PaymentMethod = { ...sampleCard, is_main: false };
    let madeMain = false;
    stubApi((call) => {
      if (call.method === 'GET' && call.path === '/payment-methods') {
        return { json: { methods: [{ ...card, is_main: madeMain }] } };
      }
      if (call.method === 'POST' && call.path === '/payment-methods/pm-card/main-request') {
        return { status: 409, json: { code: 'conflict', message: 'Already the main method' } };
      }
      return undefined;
    });
    await renderScreen(<CardViewScreen id="pm-card" />, '/credit-card?id=pm-card');
    await userEvent.click(await screen.findByRole('checkbox', { name: es.mainMethod.checkbox }));
    const dialog = await screen.findByRole('dialog', { name: es.mainMethod.dialog.title });
    // Meanwhile the provider's team makes it the main method (another request, its ERP).
    madeMain = true;
    await userEvent.click(
      within(dialog).getByRole('button', { name: es.mainMethod.dialog.request }),
    );

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText(es.mainMethod.dialog.error)).toBeNull();
    expect(await screen.findByText(es.mainMethod.isMain)).toBeTruthy();
    const checkbox = screen.getByRole<HTMLInputElement>('checkbox', {
      name: es.mainMethod.checkbox,
    });
    expect(checkbox.checked).toBe(true);
    expect(checkbox.disabled).toBe(true);
  });

  it("edits an account's holder, with its errors", async () => {
    const calls = serveMethods([sampleAccount]);
    await renderScreen(<BankAccountViewScreen id="pm-account" />, '/bank-account?id=pm-account');
    await userEvent.click(await screen.findByRole('button', { name: es.common.edit }));
    const holder = screen.getByLabelText(es.fields.holder);
    await userEvent.clear(holder);
    await userEvent.click(screen.getByRole('button', { name: es.common.saveChanges }));
    expect(holder.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(es.validation.required)).toBeTruthy();
    await userEvent.type(holder, 'Laura G.');
    expect(screen.queryByText(es.validation.required)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: es.common.saveChanges }));
    expect(await screen.findByText(es.common.changesSaved)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      alias: 'Cuenta principal',
      holder: 'Laura G.',
    });
  });

  it('deletes from the view and goes back to the list', async () => {
    serveMethods([sampleAccount, sampleCard]);
    const { router } = await renderScreen(
      <CardViewScreen id="pm-card" />,
      '/credit-card?id=pm-card',
    );
    await userEvent.click(await screen.findByRole('button', { name: es.common.delete }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: es.delete.confirm }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/metodos-de-pago'));
  });
});
