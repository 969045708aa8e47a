import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatAmount } from '@/lib/money';
import { renderWithRouter } from '@/testing/render-app';
import { ReturnedDebitNote } from './returned-debit-note';

const returned = { return_date: '20261009', reason_code: 'AM04', fee: 3.5, fee_charged: true };

describe('the returned debit note', () => {
  it('says when, why in plain words, and the fee that is added', async () => {
    await renderWithRouter(<ReturnedDebitNote returned={returned} />);
    const note = screen.getByTestId('returned-debit');
    expect(note.textContent).toContain('Devuelto por el banco el 09/10/2026');
    expect(note.textContent).toContain('Fondos insuficientes en la cuenta');
    expect(note.textContent).toContain(`Gastos de devolución: ${formatAmount(3.5)}`);
    expect(note.textContent).toContain('se suman al importe al pagarlo');
  });

  it('words an unknown code generically, in the reader language, and leaves out a zero fee', async () => {
    await renderWithRouter(
      <ReturnedDebitNote returned={{ ...returned, reason_code: 'ZZ99', fee: 0 }} />,
      { language: 'en' },
    );
    const note = screen.getByTestId('returned-debit');
    expect(note.textContent).toContain('The bank could not collect the direct debit (code ZZ99)');
    expect(note.textContent).not.toContain('Return fee');
  });

  it('does not say the fee is added when the tenant does not charge it', async () => {
    await renderWithRouter(<ReturnedDebitNote returned={{ ...returned, fee_charged: false }} />);
    expect(screen.getByTestId('returned-debit').textContent).not.toContain('se suman');
  });
});
