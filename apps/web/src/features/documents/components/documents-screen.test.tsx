import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/invoices.json';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { DocumentsScreen, presetRange } from './documents-screen';

const t = es.documents;
const receipt = {
  payment_id: '6f1c1d2e-0000-4000-8000-000000000001',
  order_id: '1234abcdEFGH',
  date: '20260310',
  amount: 47.2,
  invoices: ['F2026-00012'],
};

beforeEach(() => {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-1', name: 'Laura', email: 'cliente@demo.test' },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('presetRange', () => {
  const now = new Date(2026, 2, 15);
  it.each([
    ['thisYear', '20260101', '20260315'],
    ['lastYear', '20250101', '20251231'],
    ['last12', '20250315', '20260315'],
    ['last5', '20210315', '20260315'],
  ] as const)('%s is %s to %s', (preset, datefrom, dateto) => {
    expect(presetRange(preset, now)).toEqual({ datefrom, dateto });
  });
});

describe('Recibos y extractos', () => {
  it('downloads the statement as CSV for the chosen period, and refuses more than five years first', async () => {
    const calls = mockApi({
      '/documents/receipts': () => ({ json: { receipts: [] } }),
      '/documents/statement': () => ({ json: { url: '/1/api/1.0/documents/statement/signed' } }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderWithQuery(<DocumentsScreen />);
    await screen.findByText(t.receipts.empty);

    const from = screen.getByRole('textbox', { name: t.period.from });
    const to = screen.getByRole('textbox', { name: t.period.to });
    await userEvent.clear(from);
    await userEvent.type(from, '01/01/2015');
    await userEvent.clear(to);
    await userEvent.type(to, '31/12/2024');
    await userEvent.click(screen.getByRole('button', { name: t.statement.csv }));
    expect(await screen.findByText(t.period.tooLong)).toBeTruthy();
    expect(calls.some((c) => c.path === '/documents/statement')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: t.period.lastYear }));
    await userEvent.click(screen.getByRole('button', { name: t.statement.csv }));
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    const year = new Date().getFullYear() - 1;
    expect(calls.find((c) => c.path === '/documents/statement')?.body).toEqual({
      datefrom: `${year}0101`,
      dateto: `${year}1231`,
      format: 'csv',
      language: 'es',
    });
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe('/1/api/1.0/documents/statement/signed');
    expect(link.download).toBe(`extracto-${year}0101-${year}1231.csv`);
  });

  it('says why a period ZIP cannot be made (more than 200 invoices)', async () => {
    mockApi({
      '/documents/receipts': () => ({ json: { receipts: [] } }),
      '/documents/invoices-zip': () => ({
        status: 422,
        json: { code: 'validation_failed', message: 'x', errors: { dateto: ['too_big'] } },
      }),
    });
    await renderWithQuery(<DocumentsScreen />);
    await userEvent.click(await screen.findByRole('button', { name: t.zip.download }));
    expect((await screen.findByRole('alert')).textContent).toBe(t.zip.tooMany);
  });

  it('lists the receipts and marks the one the e-mail points at', async () => {
    const calls = mockApi({
      '/documents/receipts': () => ({ json: { receipts: [receipt] } }),
      '/documents/receipt': () => ({ json: { url: '/1/api/1.0/documents/receipt/signed' } }),
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderWithQuery(<DocumentsScreen />, {
      path: `/documentos?recibo=${receipt.payment_id}`,
    });
    const button = await screen.findByRole('button', {
      name: t.receipts.downloadLabel.replace('{{order}}', receipt.order_id),
    });
    const row = button.closest('li');
    expect(row?.getAttribute('aria-current')).toBe('true');
    expect(within(row as HTMLElement).getByText(t.receipts.fromMail)).toBeTruthy();
    await userEvent.click(button);
    await vi.waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/documents/receipt')?.body).toEqual({
      payment_id: receipt.payment_id,
      language: 'es',
    });
  });
});
