import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultVisualConfig, VisualConfigContext } from '@/lib/visual-config';
import { renderWithRouter } from '@/testing/render-app';
import { sampleCard, signIn, stubApi } from '../testing/fixtures';
import { AutoPaySection } from './auto-pay-section';

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

/**
 * `GET /user/auto-pay` lists "the first 50" instalments the card will pay (contract
 * `ZAutoPayResponse.instalments`, `service.ts` `.slice(0, 50)`): a customer with 80 of them gets
 * 50, and `instalments_total` says how many there are. Before it did, the screen counted the 50.
 */
const fifty = Array.from({ length: 50 }, (_, i) => ({
  payment_id: `e${i + 1}`,
  invoice_id: `F2027-${String(i + 1).padStart(5, '0')}`,
  seq: 1,
  due_date: `2027${String((i % 12) + 1).padStart(2, '0')}05`,
  amount_cents: 4500,
}));

describe('auto-pay: the count of instalments beyond the five listed', () => {
  it('counts the rest from the total, not from the 50 the server sent', async () => {
    stubApi((call) =>
      call.path === '/user/auto-pay'
        ? {
            json: {
              allowed: true,
              notice_days: 3,
              card_id: sampleCard.id,
              cards: [{ id: sampleCard.id, eligible: true, problem: null, enabled: true }],
              instalments: fifty,
              instalments_total: 80,
              next_charge_date: '20270105',
            },
          }
        : call.path === '/payment-methods'
          ? { json: { methods: [sampleCard], room_for_another: true } }
          : undefined,
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithRouter(
      <VisualConfigContext value={{ ...defaultVisualConfig, autoPay: true }}>
        <QueryClientProvider client={client}>
          <AutoPaySection method={sampleCard} />
        </QueryClientProvider>
      </VisualConfigContext>,
      { path: '/payment-methods/card/pm-card' },
    );
    expect(await screen.findByText('Plazos que se cobrarán')).toBeTruthy();
    expect(screen.getByText('Factura F2027-00005 · plazo 1')).toBeTruthy();
    // 80 pending instalments (or 50, or 500) all arrive as these 50: "Y 45 plazos más." is a
    // number the screen cannot know, and a wrong one for anyone with more than 50.
    expect(screen.queryByText('Y 45 plazos más.')).toBeNull();
    expect(screen.getByText('Y 75 plazos más.')).toBeTruthy();
  });
});
