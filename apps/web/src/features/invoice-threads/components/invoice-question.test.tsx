import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/lib/auth-store';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import { InvoiceQuestion } from './invoice-question';
import { ThreadScreen } from './thread-screen';

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: 'u1', code: 'C', name: 'Ana', email: 'a@x.test' } });
});
afterEach(() => vi.unstubAllGlobals());

const message = (id: string, author: 'customer' | 'organisation', body: string) => ({
  id,
  author,
  author_name: author === 'organisation' ? 'Laura' : '',
  body,
  created_at: '2026-11-26T10:15:00.000Z',
});
const summary = (status: 'open' | 'closed', unread: boolean) => ({
  id: 'th1',
  invoice_id: 'FV-1',
  status,
  created_at: '2026-11-26T10:15:00.000Z',
  unread,
  last_message: message('m2', 'organisation', 'Incluye la matrícula.'),
});

describe('asking about an invoice (issue 23, item 7)', () => {
  it('checks the question before sending, then opens the conversation', async () => {
    const calls = mockApi({
      '/invoice-threads/list': () => ({ json: { threads: [], has_more: false, unread: 0 } }),
      '/invoice-threads': () => ({
        status: 201,
        json: {
          thread: { id: 'th1', invoice_id: 'FV-1', status: 'open', created_at: 'x' },
          messages: [message('m1', 'customer', '¿Por qué sube?')],
        },
      }),
    });
    await renderWithQuery(<InvoiceQuestion invoiceId="FV-1" />, { path: '/invoice-detail/FV-1' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Preguntar sobre esta factura' }));
    const box = screen.getByRole('textbox', { name: /Tu mensaje/ });
    expect(document.activeElement).toBe(box);
    await user.type(box, '   ');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(screen.getByText('Escribe tu mensaje')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/invoice-threads')).toHaveLength(0);

    await user.type(box, '¿Por qué sube?');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/invoice-threads')).toEqual([
        { path: '/invoice-threads', body: { invoice_id: 'FV-1', message: '   ¿Por qué sube?' } },
      ]),
    );
  });

  it('says which cap a refusal is, with its number, and keeps the text', async () => {
    mockApi({
      '/invoice-threads/list': () => ({ json: { threads: [], has_more: false, unread: 0 } }),
      '/invoice-threads': () => ({
        status: 409,
        json: { code: 'invoice_thread_limit', message: 'x' },
      }),
    });
    await renderWithQuery(<InvoiceQuestion invoiceId="FV-1" />, { path: '/invoice-detail/FV-1' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Preguntar sobre esta factura' }));
    await user.type(screen.getByRole('textbox', { name: /Tu mensaje/ }), 'Hola');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByText(/Ya tienes 5 consultas abiertas/)).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Tu mensaje/ }) as HTMLTextAreaElement).value).toBe(
      'Hola',
    );
  });

  it('with an open conversation, leads to it, marked when the answer is unread', async () => {
    mockApi({
      '/invoice-threads/list': () => ({
        json: { threads: [summary('open', true)], has_more: false, unread: 1 },
      }),
    });
    await renderWithQuery(<InvoiceQuestion invoiceId="FV-1" />, { path: '/invoice-detail/FV-1' });
    const link = await screen.findByRole('link', { name: /Ver conversación/ });
    expect(link.getAttribute('href')).toBe('/consultas/th1');
    expect(link.textContent).toContain('Respuesta nueva');
    expect(screen.queryByRole('button', { name: 'Preguntar sobre esta factura' })).toBeNull();
  });
});

describe('a conversation', () => {
  it('shows the messages as a conversation and no reply box once closed', async () => {
    mockApi({
      '/invoice-threads/th1': () => ({
        json: {
          thread: { id: 'th1', invoice_id: 'FV-1', status: 'closed', created_at: 'x' },
          messages: [
            message('m1', 'customer', '¿Por qué sube?'),
            message('m2', 'organisation', 'Incluye la matrícula.'),
          ],
        },
      }),
    });
    await renderWithQuery(<ThreadScreen threadId="th1" />, { path: '/consultas/th1' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Consulta sobre la factura FV-1' }),
    ).toBeTruthy();
    expect(screen.getByText('Incluye la matrícula.')).toBeTruthy();
    expect(screen.getByText(/Laura/)).toBeTruthy();
    expect(screen.getByText(/La conversación está cerrada/)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('says when the organisation has read the last message, and not before', async () => {
    let readAt: string | null = null;
    mockApi({
      '/invoice-threads/th1': () => ({
        json: {
          thread: {
            id: 'th1',
            invoice_id: 'FV-1',
            status: 'open',
            created_at: '2026-11-26T10:15:00.000Z',
            organisation_read_at: readAt,
          },
          messages: [message('m1', 'customer', '¿Por qué sube?')],
        },
      }),
    });
    const { unmount } = await renderWithQuery(<ThreadScreen threadId="th1" />, {
      path: '/consultas/th1',
    });
    expect(await screen.findByText('¿Por qué sube?')).toBeTruthy();
    expect(screen.queryByText(/^Leído por/)).toBeNull();
    unmount();

    readAt = '2026-11-26T11:00:00.000Z';
    await renderWithQuery(<ThreadScreen threadId="th1" />, { path: '/consultas/th1' });
    expect(await screen.findByText(/^Leído por \S/)).toBeTruthy();
  });

  it("is 'not found' for someone else's or an unknown conversation", async () => {
    mockApi({});
    await renderWithQuery(<ThreadScreen threadId="nope" />, { path: '/consultas/nope' });
    expect(await screen.findByText('Conversación no encontrada')).toBeTruthy();
  });
});
