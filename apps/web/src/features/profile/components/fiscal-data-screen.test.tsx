import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { renderWithRouter } from '@/testing/render-app';
import { FiscalDataScreen } from './fiscal-data-screen';
import { FiscalRequestStatus } from './fiscal-request-status';

const profile = {
  name: 'Laura',
  lastName: 'García Martín',
  client_id: 'LE-000123',
  entry_date: '2021-03-15',
  nif: '12345678Z',
  address: 'Calle Mayor 12',
  city: 'Madrid',
  country: 'España',
  shipping_cp: '28013',
  shipping_province: 'Madrid',
  shipping_city: 'Madrid',
  shipping_country: 'España',
  shipping_address: 'Calle Mayor 12',
  email: 'cliente@demo.test',
  phone: '+34 600 123 456',
  contact_name: 'Laura García Martín',
  invoice_email: '',
  invoice_name: '',
  forma_pago: 'Domiciliación bancaria',
  has_password: true,
};

const pending = {
  id: 'r1',
  status: 'pending',
  requested: {
    invoice_name: 'García Martín Consultoría SL',
    nif: 'B12345674',
    address: 'Calle de Alcalá 200',
    city: 'Madrid',
    country: 'España',
  },
  comment: 'Desde enero',
  reason: '',
  created_at: '2026-11-26T10:15:00.000Z',
  closed_at: null,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

type Answer = (url: string, init: RequestInit | undefined) => Response;

async function renderWith(ui: ReactNode, answer: Answer) {
  setAuth({
    accessToken: 'tok',
    user: { id: 'u1', code: 'LE-000123', name: 'Laura', email: 'cliente@demo.test' },
  });
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => answer(String(input), init));
  vi.stubGlobal('fetch', fetchMock);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await renderWithRouter(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return fetchMock;
}

const reads: Answer = (url) =>
  url.endsWith('/user/fiscal-data-requests')
    ? json(200, { pending: null, last_decision: null })
    : json(200, profile);

const sent = (fetchMock: ReturnType<typeof vi.fn<typeof fetch>>) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');

afterEach(() => vi.unstubAllGlobals());

describe('fiscal data change request (issue 23)', () => {
  it('starts from the current data and refuses a bad NIF before sending anything', async () => {
    const fetchMock = await renderWith(<FiscalDataScreen />, reads);
    const name = await screen.findByLabelText('Nombre o razón social');
    // No business name yet: the customer's full name, as the profile's fiscal card shows.
    expect((name as HTMLInputElement).value).toBe('Laura García Martín');
    const nif = screen.getByLabelText('NIF, NIE o CIF');
    expect((nif as HTMLInputElement).value).toBe('12345678Z');
    await userEvent.clear(nif);
    await userEvent.type(nif, '12345678A');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar solicitud' }));
    expect(
      await screen.findByText(
        'Introduce un NIF, NIE o CIF válido (revisa la letra o el dígito de control).',
      ),
    ).toBeTruthy();
    expect(nif.getAttribute('aria-invalid')).toBe('true');
    expect(sent(fetchMock)).toHaveLength(0);
  });

  it('sends the new values with the comment, and says so when one already waits', async () => {
    const fetchMock = await renderWith(<FiscalDataScreen />, (url, init) =>
      init?.method === 'POST'
        ? json(409, { message: 'A request already waits', code: 'fiscal_request_pending' })
        : reads(url, init),
    );
    const nif = await screen.findByLabelText('NIF, NIE o CIF');
    await userEvent.clear(nif);
    await userEvent.type(nif, 'B12345674');
    await userEvent.type(screen.getByLabelText(/Comentario para/), 'Desde enero');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar solicitud' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Ya tienes una solicitud de cambio pendiente');
    const [call] = sent(fetchMock);
    expect(String(call?.[0])).toBe('/1/api/1.0/user/fiscal-data-requests');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      invoice_name: 'Laura García Martín',
      nif: 'B12345674',
      address: 'Calle Mayor 12',
      city: 'Madrid',
      country: 'España',
      comment: 'Desde enero',
    });
  });

  it('shows the waiting request, pending review, and withdraws it', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      json(200, { pending: null, last_decision: null }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithRouter(
      <QueryClientProvider client={client}>
        <FiscalRequestStatus
          state={{ pending, last_decision: null } as never}
          loadFailed={false}
          onRetry={() => {}}
        />
      </QueryClientProvider>,
    );
    const region = screen.getByRole('region', { name: 'Cambio solicitado' });
    expect(within(region).getByText('Pendiente de revisión')).toBeTruthy();
    expect(within(region).getByText('B12345674')).toBeTruthy();
    expect(within(region).getByText('Desde enero')).toBeTruthy();
    await userEvent.click(within(region).getByRole('button', { name: 'Retirar solicitud' }));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/1/api/1.0/user/fiscal-data-requests/r1');
    expect(init?.method).toBe('DELETE');
  });

  it("shows a rejection with the organisation's reason, and hides it", async () => {
    const fetchMock = vi.fn<typeof fetch>(async () =>
      json(200, { pending: null, last_decision: null }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const rejected = {
      ...pending,
      status: 'rejected',
      reason: 'El CIF no corresponde a la sociedad',
      closed_at: '2026-11-27T09:00:00.000Z',
    };
    await renderWithRouter(
      <QueryClientProvider client={client}>
        <FiscalRequestStatus
          state={{ pending: null, last_decision: rejected } as never}
          loadFailed={false}
          onRetry={() => {}}
        />
      </QueryClientProvider>,
    );
    const region = screen.getByRole('region', { name: 'Cambio rechazado' });
    expect(region.textContent).toContain('27/11/2026');
    expect(region.textContent).toContain('El CIF no corresponde a la sociedad');
    await userEvent.click(within(region).getByRole('button', { name: /Ocultar/ }));
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe(
      '/1/api/1.0/user/fiscal-data-requests/r1/dismiss',
    );
  });

  it.each([
    ['requested', { pending: { ...pending, created_at: '2026-12-31T23:30:00.000Z' } }],
    [
      'decided',
      {
        last_decision: {
          ...pending,
          status: 'approved',
          closed_at: '2026-12-31T23:30:00.000Z',
        },
      },
    ],
  ] as const)("says the day it was %s on Madrid's clock, not the browser's", async (_, state) => {
    const savedTz = process.env.TZ;
    // Las Palmas, 23:30 on 31 December: 00:30 on 1 January 2027 in Madrid.
    process.env.TZ = 'Atlantic/Canary';
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn<typeof fetch>(async () => json(200, { pending: null, last_decision: null })),
      );
      const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
      await renderWithRouter(
        <QueryClientProvider client={client}>
          <FiscalRequestStatus
            state={{ pending: null, last_decision: null, ...state } as never}
            loadFailed={false}
            onRetry={() => {}}
          />
        </QueryClientProvider>,
      );
      const region = screen.getByRole('region');
      expect(region.textContent).toContain('01/01/2027');
      expect(region.textContent).not.toContain('31/12/2026');
    } finally {
      if (savedTz === undefined) delete process.env.TZ;
      else process.env.TZ = savedTz;
    }
  });
});
