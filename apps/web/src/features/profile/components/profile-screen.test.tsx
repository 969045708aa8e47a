import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAuth, setAuth } from '@/lib/auth-store';
import { onSessionEnd } from '@/lib/session';
import { renderWithRouter } from '@/testing/render-app';
import { formatEntryDate, initialsOf } from '../format';
import { ProfileScreen } from './profile-screen';

const profile = {
  name: 'Laura',
  lastName: 'García Martín',
  client_id: 'LE-000123',
  entry_date: '2021-03-15',
  nif: '12345678Z',
  address: 'Calle Mayor 12',
  city: 'Madrid',
  country: '',
  shipping_cp: '28013',
  shipping_province: 'Madrid',
  shipping_city: 'Madrid',
  shipping_country: 'España',
  shipping_address: 'Calle Mayor 12',
  email: 'cliente@demo.test',
  phone: '+34 600 123 456',
  contact_name: 'Laura García Martín',
  invoice_email: 'cliente@demo.test',
  invoice_name: 'Laura García Martín',
  forma_pago: 'Domiciliación bancaria',
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

async function renderProfile(answer: () => Response) {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-000123', name: 'Laura', email: 'cliente@demo.test' },
  });
  const fetchMock = vi.fn<typeof fetch>(async () => answer());
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderWithRouter(
    <QueryClientProvider client={client}>
      <ProfileScreen />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => vi.unstubAllGlobals());

describe('profile screen (spec §2 "Profile")', () => {
  it('shows the fiscal, contact and billing data of /user/profile/{user.id}', async () => {
    const fetchMock = await renderProfile(() => json(200, profile));
    expect(screen.getByRole('status').textContent).toBe('Cargando los datos del usuario…');
    const fiscal = await screen.findByRole('region', { name: 'Datos fiscales' });
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/1/api/1.0/user/profile/u1');
    expect(within(fiscal).getByText('12345678Z')).toBeTruthy();
    // Spec §3: the country defaults to Spain.
    expect(within(fiscal).getByText('España')).toBeTruthy();
    const contact = screen.getByRole('region', { name: 'Datos de contacto' });
    expect(within(contact).getByText('+34 600 123 456')).toBeTruthy();
    const billing = screen.getByRole('region', { name: 'Datos de facturación' });
    expect(within(billing).getByText('Domiciliación bancaria')).toBeTruthy();
    expect(screen.getByText('15/03/2021')).toBeTruthy();
    expect(screen.getByText('LE-000123')).toBeTruthy();

    const options = screen.getByRole('region', { name: 'Opciones adicionales' });
    expect(
      within(options)
        .getByRole('link', { name: /Facturas/ })
        .getAttribute('href'),
    ).toBe('/invoices');
    expect(within(options).getByRole('link', { name: /Pagos/ }).getAttribute('href')).toBe(
      '/mis-pagos',
    );
    expect(within(options).queryByRole('link', { name: /Contratos|Presupuestos/ })).toBeNull();
  });

  it('says "Error al cargar los datos del usuario" and can try again', async () => {
    let fail = true;
    await renderProfile(() => (fail ? json(500, { code: 'internal_error' }) : json(200, profile)));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Error al cargar los datos del usuario',
    );
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('region', { name: 'Datos fiscales' })).toBeTruthy();
  });

  it('ends the session on a 403 that survived the refresh (spec §6)', async () => {
    const ended = vi.fn();
    const stop = onSessionEnd(ended);
    await renderProfile(() => json(403, { code: 'forbidden' }));
    await screen.findByRole('alert');
    stop();
    expect(ended).toHaveBeenCalled();
    expect(getAuth()).toEqual({});
  });
});

describe('profile formatting', () => {
  it('shows YYYY-MM-DD as dd/mm/yyyy, nothing for an invalid date', () => {
    expect(formatEntryDate('2020-09-15')).toBe('15/09/2020');
    expect(formatEntryDate('2020-02-30')).toBeNull();
    expect(formatEntryDate(null)).toBeNull();
    expect(formatEntryDate('15/09/2020')).toBeNull();
  });

  it('takes the initials of the first two words', () => {
    expect(initialsOf('laura García Martín')).toBe('LG');
    expect(initialsOf('  ')).toBe('');
  });
});
