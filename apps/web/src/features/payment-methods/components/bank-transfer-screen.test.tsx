import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import es from '@/locales/es/payment-methods.json';
import { renderScreen, signIn, stubApi } from '../testing/fixtures';
import { BankTransferScreen } from './bank-transfer-screen';

const info = {
  iban: 'ES79 2100 0813 6101 2345 6789',
  beneficiary: 'Demo Fitness S.L.',
  reference: 'Cliente DF-000123',
  epc_qr:
    'BCD\n002\n1\nSCT\n\nDemo Fitness S.L.\nES7921000813610123456789\n\n\n\nCliente DF-000123\n',
};

beforeEach(signIn);
afterEach(() => vi.unstubAllGlobals());

const serve = () =>
  stubApi((call) => (call.path === '/payment-methods/bank-transfer' ? { json: info } : undefined));

describe('paying by bank transfer (spec §2 "Add bank transfer", "Bank data")', () => {
  it("shows the tenant's account, the customer's reference and the EPC QR code", async () => {
    serve();
    await renderScreen(<BankTransferScreen variant="data" />, '/datos-bancarios');
    expect(screen.getByRole('heading', { level: 1, name: es.bankTransfer.dataTitle })).toBeTruthy();
    const data = await screen.findByRole('region', { name: es.bankTransfer.accountTitle });
    expect(data.textContent).toContain(info.beneficiary);
    expect(data.textContent).toContain(info.iban);
    expect(data.textContent).toContain(info.reference);
    const qr = screen.getByRole('img', { name: /Código QR de transferencia SEPA a Demo Fitness/ });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(qr.querySelectorAll('rect').length).toBeGreaterThan(50);
    // Read only: no main-method request here.
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('copies the IBAN and says so', async () => {
    serve();
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await renderScreen(<BankTransferScreen variant="data" />, '/datos-bancarios');
    await userEvent.click(await screen.findByRole('button', { name: 'Copiar IBAN' }));
    expect(writeText).toHaveBeenCalledWith('ES7921000813610123456789');
    expect(await screen.findByText(es.bankTransfer.copied)).toBeTruthy();
  });

  it('explains how to copy by hand without a clipboard', async () => {
    serve();
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    await renderScreen(<BankTransferScreen variant="data" />, '/datos-bancarios');
    await userEvent.click(await screen.findByRole('button', { name: 'Copiar Concepto' }));
    expect((await screen.findByRole('alert')).textContent).toBe(es.bankTransfer.copyFailed);
    expect(window.getSelection()?.toString()).toBe(info.reference);
  });

  it('offers the main-method modal on the add screen, pointing to contact', async () => {
    serve();
    await renderScreen(<BankTransferScreen variant="add" />, '/add-bank-transfer');
    await userEvent.click(screen.getByRole('checkbox', { name: es.mainMethod.checkbox }));
    const dialog = await screen.findByRole('dialog', { name: es.mainMethod.dialog.title });
    expect(dialog.textContent).toContain(es.mainMethod.dialog.transfer);
    expect(
      within(dialog).getByRole('link', { name: es.mainMethod.dialog.contact }).getAttribute('href'),
    ).toBe('/contacto');
  });

  it('says when the tenant takes no transfers', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi(() => ({ status: 404, json: { code: 'not_found', message: 'x' } }));
    await renderScreen(<BankTransferScreen variant="data" />, '/datos-bancarios');
    expect((await screen.findByRole('alert')).textContent).toBe(es.bankTransfer.unavailable);
  });
});
