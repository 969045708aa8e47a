import { screen } from '@testing-library/react';
import { maxPaymentIds } from '@portal/contract/payment-limits';
import { describe, expect, it } from 'vitest';
import { renderWithRouter } from '@/testing/render-app';
import { SelectionBar } from './selection-bar';
import type { Selection } from './selection';

/** `count` chosen instalments of 1 € each, p1..pN. */
const chosen = (count: number): Selection =>
  new Map(Array.from({ length: count }, (_, i) => [`p${i + 1}`, 1]));

describe('select-to-pay: at most the instalments one payment takes (contract)', () => {
  it('does not hand over more than the limit, and says why beside the button', async () => {
    await renderWithRouter(<SelectionBar selection={chosen(maxPaymentIds + 1)} />, {
      path: '/mis-pagos',
    });
    const reason = await screen.findByText('Como mucho 200 plazos en un pago.');
    // No link to a confirmation that would refuse them: a disabled button that names the reason.
    expect(screen.queryByRole('link', { name: 'Pagar seleccionados' })).toBeNull();
    const button = screen.getByRole('button', { name: 'Pagar seleccionados' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
    // Inside the polite live region with the count and total, so it is announced as it appears.
    expect(reason.closest('[aria-live="polite"]')).not.toBeNull();
  });

  it('hands over exactly the limit', async () => {
    await renderWithRouter(<SelectionBar selection={chosen(maxPaymentIds)} />, {
      path: '/mis-pagos',
    });
    const link = await screen.findByRole('link', { name: 'Pagar seleccionados' });
    const ids = new URL(link.getAttribute('href') ?? '', 'http://x').searchParams.get('payments');
    expect(ids?.split(',')).toHaveLength(maxPaymentIds);
    expect(screen.queryByText('Como mucho 200 plazos en un pago.')).toBeNull();
  });
});
