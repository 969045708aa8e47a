import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import {
  type Answer,
  type ApiCall,
  demoCreditor,
  renderScreen,
  sampleAccount,
  sampleCard,
  signIn,
  stubApi,
} from '../testing/fixtures';
import type { PaymentMethod } from '../utils/method-display';
import { PaymentMethodsScreen } from './payment-methods-screen';

const unverified: PaymentMethod = {
  ...sampleAccount,
  id: 'pm-new',
  alias: '',
  is_main: false,
  status: 'unverified',
  pending_request: 'verification',
  pending_requests: ['verification'],
  iban: 'ES91 2100 0418 4502 0005 1332',
};

beforeEach(() => {
  signIn();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

function serve(methods: PaymentMethod[], extra?: (call: ApiCall) => Answer | undefined) {
  return stubApi((call) => {
    if (call.method === 'GET' && call.path === '/payment-methods') return { json: { methods } };
    return extra?.(call);
  });
}

describe('payment methods (spec §2 "Payment methods")', () => {
  it('lists each method with its holder, status, main badge and pending request', async () => {
    serve([sampleAccount, sampleCard, unverified]);
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    const list = await screen.findByRole('list', { name: es.list.savedTitle });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const [account, card, pending] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(
      within(account).getByRole('link', { name: 'Cuenta principal' }).getAttribute('href'),
    ).toBe('/bank-account?id=pm-account');
    expect(account.textContent).toContain('Titular: Laura García Martín');
    expect(within(account).getByText('Activa')).toBeTruthy();
    expect(within(account).getByText(es.badges.main)).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Mi tarjeta' }).getAttribute('href')).toBe(
      '/credit-card?id=pm-card',
    );
    expect(card.textContent).toContain('Caduca 12/30');
    expect(within(card).getByText('terminada en 0004')).toBeTruthy();
    // Spec §2: "No verificada" until the provider verifies the account.
    expect(within(pending).getByRole('link', { name: 'Cuenta bancaria' })).toBeTruthy();
    expect(within(pending).getByText('No verificada')).toBeTruthy();
    expect(within(pending).getByText(es.badges.verificationRequested)).toBeTruthy();
    // The three ways to add one.
    expect(
      screen.getByRole('link', { name: /Cuenta bancaria Domicilia/ }).getAttribute('href'),
    ).toBe('/add-bank-account');
    expect(screen.getByRole('link', { name: /Tarjeta de crédito/ }).getAttribute('href')).toBe(
      '/añadir-tarjeta',
    );
    expect(screen.getByRole('link', { name: /Transferencia bancaria/ }).getAttribute('href')).toBe(
      '/add-bank-transfer',
    );
  });

  it('shows the empty texts of spec §8 without methods', async () => {
    serve([]);
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    expect(
      await screen.findByText('No se ha encontrado ningún método de pago guardado'),
    ).toBeTruthy();
    expect(screen.getByText('Añade una de las formas de pago disponibles')).toBeTruthy();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    let fail = true;
    stubApi(() =>
      fail ? { status: 500, json: { code: 'internal_error' } } : { json: { methods: [] } },
    );
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    expect((await screen.findByRole('alert')).textContent).toContain(es.list.loadError);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: es.common.retry }));
    expect(await screen.findByText(es.list.empty)).toBeTruthy();
  });

  it('deletes after confirming in the modal, and says so', async () => {
    let methods = [sampleAccount, sampleCard];
    const calls = stubApi((call) => {
      if (call.method === 'GET') return { json: { methods } };
      if (call.method === 'DELETE' && call.path === '/payment-methods/pm-card') {
        methods = [sampleAccount];
        return { json: { count: 1 } };
      }
      return undefined;
    });
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar Mi tarjeta' }));
    const dialog = await screen.findByRole('dialog', { name: es.delete.title });
    expect(dialog.textContent).toContain('¿Seguro que quieres eliminar «Mi tarjeta»?');
    // Cancel deletes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: es.common.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Eliminar Mi tarjeta' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: es.delete.confirm }),
    );
    expect(await screen.findByText('Se ha eliminado el método de pago «Mi tarjeta».')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Mi tarjeta' })).toBeNull());
    expect(document.activeElement?.textContent).toBe(es.list.savedTitle);
  });

  it('explains why the API refuses to delete the main method', async () => {
    serve([sampleAccount], (call) =>
      call.method === 'DELETE'
        ? { status: 409, json: { code: 'method_in_use', message: 'In use' } }
        : undefined,
    );
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    await userEvent.click(await screen.findByRole('button', { name: 'Eliminar Cuenta principal' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: es.delete.confirm }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(es.delete.errors.main);
    // Nothing more to try: only the way out, which has the focus.
    expect(within(dialog).queryByRole('button', { name: es.delete.confirm })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        within(dialog).getByRole('button', { name: es.common.understood }),
      ),
    );
    // Still listed (behind the modal, hidden from screen readers while it is open).
    expect(screen.getByRole('link', { name: 'Cuenta principal', hidden: true })).toBeTruthy();
  });

  it('verifies a card back from the gateway until it is saved, then lists it', async () => {
    let checks = 0;
    let methods = [sampleAccount];
    stubApi((call) => {
      if (call.path === '/payment-methods') return { json: { methods } };
      if (call.path !== '/redsys/payment/a1/status') return undefined;
      checks += 1;
      // The notification arrives between the first and the second check.
      const saved = checks > 1;
      if (saved) methods = [sampleAccount, sampleCard];
      return { json: attemptAnswer(saved ? 'paid' : 'pending', saved) };
    });
    const { router } = await renderScreen(
      <PaymentMethodsScreen />,
      '/metodos-de-pago?card_attempt=a1',
    );
    expect(await screen.findByText(es.cardAttempt.verifying.title)).toBeTruthy();
    expect(await screen.findByText(es.cardAttempt.saved.title, {}, { timeout: 8000 })).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Mi tarjeta' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: es.cardAttempt.dismiss }));
    expect(router.state.location.search).toBe('');
    expect(screen.queryByText(es.cardAttempt.saved.title)).toBeNull();
  });

  it('says when the card was not saved, with a way to try again', async () => {
    serve([sampleAccount], (call) =>
      call.path === '/redsys/payment/a2/status'
        ? { json: attemptAnswer('failed', false) }
        : undefined,
    );
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago?card_attempt=a2');
    expect(await screen.findByText(es.cardAttempt.failed.title)).toBeTruthy();
    expect(
      screen.getByRole('link', { name: es.cardAttempt.failed.retry }).getAttribute('href'),
    ).toBe('/añadir-tarjeta');
  });

  it('does not believe an attempt the server does not know', async () => {
    serve([sampleAccount]);
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago?card_attempt=nope');
    expect(await screen.findByText(es.cardAttempt.unknown.title)).toBeTruthy();
  });
});

function attemptAnswer(status: 'pending' | 'paid' | 'failed', saved: boolean) {
  return {
    payment_id: 'a1',
    order_id: '4821Xk9PqA2b',
    status,
    amount: 0,
    invoices: [],
    card_saved: saved,
    created_at: '2026-11-21T15:30:00.000Z',
    settled_at: status === 'pending' ? null : '2026-11-21T15:31:00.000Z',
  };
}

describe('the SEPA mandates on the payment methods screen (issue 23, item 6)', () => {
  const mandate = {
    id: 'md-1',
    reference: 'M-20261126-8F3A1C9E2B7D',
    status: 'active',
    debtor_name: 'Laura García Martín',
    iban: 'ES91 2100 0418 4502 0005 1332',
    payment_method_id: 'pm-account',
    signed_at: '2026-11-26T10:15:00.000Z',
    replaced_by_reference: null,
  };
  const replaced = {
    ...mandate,
    id: 'md-0',
    reference: 'M-20250301-1A2B3C4D5E6F',
    status: 'replaced',
    replaced_by_reference: mandate.reference,
  };

  it('lists each mandate with its state and asks for its PDF link', async () => {
    const calls = stubApi(
      (call) =>
        call.path === '/payment-methods'
          ? { json: { methods: [sampleAccount] } }
          : call.path === '/sepa-mandates/md-0/pdf'
            ? { json: { url: '/demo/api/1.0/sepa-mandates/pdf/token' } }
            : undefined,
      { creditor: demoCreditor, mandates: [mandate, replaced] },
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    const list = await screen.findByRole('list', { name: es.mandate.listTitle });
    const items = within(list).getAllByRole('article');
    expect(items[0]?.textContent).toContain(es.mandate.states.active);
    expect(items[1]?.textContent).toContain(es.mandate.states.replaced);
    expect(items[1]?.textContent).toContain(
      es.mandate.replacedBy.replace('{{reference}}', mandate.reference),
    );
    await userEvent.click(
      within(items[1] as HTMLElement).getByRole('button', {
        name: es.mandate.downloadPdf.replace('{{reference}}', replaced.reference),
      }),
    );
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/sepa-mandates/md-0/pdf' });
    click.mockRestore();
  });

  it('shows no mandates section where the tenant signs none and the customer has none', async () => {
    stubApi(() => ({ json: { methods: [sampleAccount] } }));
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    await screen.findByRole('heading', { name: es.list.savedTitle });
    await waitFor(() => expect(screen.queryByText(es.mandate.listTitle)).toBeNull());
  });

  it('offers "Firmar mandato SEPA" on a bank account saved without a mandate, only there', async () => {
    const older: PaymentMethod = { ...sampleAccount, id: 'pm-old', alias: 'Cuenta antigua' };
    const other: PaymentMethod = { ...sampleAccount, id: 'pm-other', alias: 'Cuenta anterior' };
    stubApi(
      (call) =>
        call.path === '/payment-methods'
          ? { json: { methods: [sampleAccount, older, other, sampleCard] } }
          : undefined,
      {
        creditor: demoCreditor,
        mandates: [mandate, { ...replaced, payment_method_id: 'pm-other' }],
      },
    );
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    const list = await screen.findByRole('list', { name: es.list.savedTitle });
    const sign = await within(list).findByRole('link', {
      name: es.list.signMandateFor.replace('{{name}}', 'Cuenta antigua'),
    });
    expect(sign.textContent).toBe('Firmar mandato SEPA');
    expect(sign.getAttribute('href')).toBe('/firmar-mandato?id=pm-old');
    // The account with the active mandate, the one whose mandate was replaced and the card: none.
    expect(within(list).getAllByRole('link', { name: /Firmar mandato SEPA/ })).toHaveLength(1);
  });

  it('offers no signature where the tenant signs no mandates in the portal', async () => {
    stubApi(() => ({ json: { methods: [sampleAccount] } }));
    await renderScreen(<PaymentMethodsScreen />, '/metodos-de-pago');
    await screen.findByRole('link', { name: 'Cuenta principal' });
    expect(screen.queryByRole('link', { name: /Firmar mandato SEPA/ })).toBeNull();
  });
});
