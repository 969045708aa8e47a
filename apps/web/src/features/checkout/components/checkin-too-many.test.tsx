import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { maxPaymentIds } from '@portal/contract/payment-limits';
import { afterEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/checkout.json';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { parseCheckinQuery } from '../utils/checkin-query';
import { CheckinScreen } from './checkin-screen';

afterEach(() => vi.unstubAllGlobals());

describe('paying more instalments than one payment takes', () => {
  it('reads more than the limit as its own error, not as a missing invoice', () => {
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `p${i + 1}`).join(',');
    const parse = (count: number) =>
      parseCheckinQuery(new URLSearchParams({ payments: ids(count) }));
    expect(parse(maxPaymentIds + 1)).toEqual({ ok: false, errors: ['tooMany'] });
    expect(parse(maxPaymentIds)).toMatchObject({ ok: true, target: { kind: 'payments' } });
  });

  it('does not tell a customer who chose 201 instalments that no invoice was given', async () => {
    const fetchMock = vi.fn<typeof fetch>(
      async () =>
        new Response(JSON.stringify({ methods: [], room_for_another: true }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    // What the payments list's "Pagar seleccionados" linked to (paymentsCheckinHref) after 201
    // checkboxes, before it stopped at the contract's 200: an address kept from then, or typed.
    const ids = Array.from({ length: 201 }, (_, i) => `p${i + 1}`).join(',');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithRouter(
      <VisualConfigContext value={defaultVisualConfig}>
        <QueryClientProvider client={client}>
          <CheckinScreen />
        </QueryClientProvider>
      </VisualConfigContext>,
      { path: `/payment-checkin?payments=${ids}&amount=9045.00` },
    );
    const alert = await screen.findByRole('alert');
    // It said "No se proporcionó ID de factura" and "Vuelve a la factura o a tus pagos y pulsa de
    // nuevo en pagar.", which sent the customer round the same loop; the limit was never said.
    expect(alert.textContent).not.toContain(es.errors.missingInvoice);
    expect(alert.textContent).not.toContain(es.errors.details.missingInvoice);
    expect(alert.textContent).toContain('Como mucho 200 plazos en un pago.');
  });
});
