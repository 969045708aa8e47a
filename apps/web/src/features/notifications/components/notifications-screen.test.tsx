import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MainLayout } from '@/components/layouts/main-layout';
import { setAuth } from '@/lib/auth-store';
import { madridMomentOf } from '@/lib/dates';
import { mockApi, renderWithQuery } from '@/testing/mock-api';
import type { NotificationItem } from '../api/get-notifications';
import { NotificationsScreen } from './notifications-screen';

type Note = NotificationItem;

/**
 * `YYYY-MM-DD` of the day `offset` days from today on the organisation's clock (Madrid), by which
 * the screen groups "Hoy" and "Ayer": the machine's own day was a day behind from 23:00 UTC.
 */
function dayFromToday(offset: number): string {
  const { year, month, day } = madridMomentOf(new Date());
  const d = new Date(Date.UTC(year, month - 1, day + offset));
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]
    .map((n, i) => String(n).padStart(i === 0 ? 4 : 2, '0'))
    .join('-');
}

const note = (id: string, daysAgo: number, isRead: boolean, link: string | null = null): Note => ({
  id,
  source: 'organisation',
  title: `Aviso ${id}`,
  message: `Texto del aviso ${id}`,
  date: dayFromToday(-daysAgo),
  time: '10:30',
  isRead,
  type: 'info',
  link,
});

/**
 * A small in-memory server: the list with its filter and pages, the count, read and delete.
 * `hold` keeps the list's answers back until `release` is called.
 */
function fakeServer(initial: Note[], pageSize = 20, { hold = false } = {}) {
  let notes = [...initial];
  let release: () => void = () => {};
  const held = hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const unread = () => notes.filter((n) => !n.isRead).length;
  const calls = mockApi({
    '/notifications': async (body) => {
      await held;
      const filter = body.filter ?? 'all';
      const page = Number(body.page ?? 1);
      const matching = notes.filter((n) =>
        filter === 'read' ? n.isRead : filter === 'unread' ? !n.isRead : true,
      );
      return {
        json: {
          notifications: matching.slice((page - 1) * pageSize, page * pageSize),
          has_more: matching.length > page * pageSize,
          unread: unread(),
        },
      };
    },
    '/notifications/unread-count': () => ({ json: { unread: unread() } }),
    '/notifications/read': (body) => {
      const ids = body.ids as string[];
      let count = 0;
      notes = notes.map((n) => {
        if (!ids.includes(n.id) || n.isRead) return n;
        count += 1;
        return { ...n, isRead: true };
      });
      return { json: { count } };
    },
    '/notifications/delete': (body) => {
      const ids = body.ids as string[];
      const before = notes.length;
      notes = notes.filter((n) => !ids.includes(n.id));
      return { json: { count: before - notes.length } };
    },
  });
  return { calls, notes: () => notes, release: () => release() };
}

const bell = () =>
  within(screen.getByRole('banner')).getByRole('link', { name: /^Notificaciones/ });

beforeEach(() => {
  setAuth({ accessToken: 't', user: { id: 'u1', code: 'C', name: 'Ana', email: 'a@x.test' } });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

async function renderScreen(path = '/my-notifications', language?: 'en') {
  return renderWithQuery(
    <MainLayout>
      <NotificationsScreen />
    </MainLayout>,
    { path, ...(language ? { language } : {}) },
  );
}

describe('notifications (spec §2 "Notifications")', () => {
  it('shows four placeholders, then the notifications by day, newest first', async () => {
    const server = fakeServer(
      [note('a', 0, false, '/invoice-detail/F-1'), note('b', 1, true), note('c', 9, true)],
      20,
      { hold: true },
    );
    await renderScreen();
    const loading = await screen.findByRole('status', { name: 'Cargando notificaciones…' });
    expect(within(loading).getAllByRole('listitem')).toHaveLength(4);
    server.release();

    await screen.findByRole('article', { name: 'Aviso b' });
    const list = screen.getByRole('region', { name: 'Lista de notificaciones' });
    const days = within(list).getAllByRole('heading', { level: 2 });
    expect(days.map((h) => h.textContent)).toEqual([
      'Hoy',
      'Ayer',
      // Nine days ago falls on any weekday: «Sábado», «Miércoles».
      expect.stringMatching(/^\p{Lu}\p{Ll}+, \d{1,2} de \p{Ll}+ de \d{4}$/u),
    ]);
    const today = within(list).getByRole('region', { name: 'Hoy' });
    const article = within(today).getByRole('article', { name: 'Aviso a (Sin leer)' });
    expect(within(article).getByText('10:30 h')).toBeTruthy();
    expect(
      within(article).getByRole('link', { name: 'Acceder: Aviso a' }).getAttribute('href'),
    ).toBe('/invoice-detail/F-1');
    // A read one without a link: nothing to open or mark, only delete.
    const yesterday = within(list).getByRole('article', { name: 'Aviso b' });
    expect(within(yesterday).queryByRole('link')).toBeNull();
    expect(
      within(yesterday)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Eliminar']);
    expect(screen.getByText('Tienes 1 notificación sin leer')).toBeTruthy();
    expect(screen.getByText('No hay más notificaciones')).toBeTruthy();
  });

  it('filters unread and read on the server, keeping the filter in the address', async () => {
    const { calls } = fakeServer([note('a', 0, false), note('b', 1, true)]);
    const { router } = await renderScreen();
    await screen.findByRole('article', { name: 'Aviso b' });
    const filters = screen.getByRole('group', { name: 'Mostrar' });
    expect(
      within(filters).getByRole('button', { name: 'Todas' }).getAttribute('aria-pressed'),
    ).toBe('true');

    await userEvent.click(within(filters).getByRole('button', { name: 'No leídas' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Aviso b' })).toBeNull());
    expect(screen.getByRole('article', { name: 'Aviso a (Sin leer)' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/notifications').at(-1)?.body).toEqual({
      filter: 'unread',
      page: '1',
    });
    expect(router.state.location.search).toBe('?filter=unread');

    await userEvent.click(within(filters).getByRole('button', { name: 'Leídas' }));
    await screen.findByRole('article', { name: 'Aviso b' });
    expect(screen.queryByRole('article', { name: 'Aviso a (Sin leer)' })).toBeNull();
  });

  it('marks one read: the server is told, the list and the bell update', async () => {
    const { calls } = fakeServer([note('a', 0, false), note('b', 0, false), note('c', 2, true)]);
    await renderScreen();
    const article = await screen.findByRole('article', { name: 'Aviso a (Sin leer)' });
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 2 sin leer'),
    );
    expect(within(bell()).getByText('2')).toBeTruthy();

    await userEvent.click(
      within(article).getByRole('button', { name: 'Marcar como leída: Aviso a' }),
    );
    expect(await screen.findByText('1 notificación marcada como leída')).toBeTruthy();
    expect(calls.find((c) => c.path === '/notifications/read')?.body).toEqual({ ids: ['a'] });
    await screen.findByRole('article', { name: 'Aviso a' });
    // Its button went with the change: focus is back at the top, not lost.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })),
    );
    await waitFor(() =>
      expect(bell().getAttribute('aria-label')).toBe('Notificaciones, 1 sin leer'),
    );
    expect(screen.getByText('Tienes 1 notificación sin leer')).toBeTruthy();
  });

  it('"Acceder" marks it read and leads where the notification says', async () => {
    const { calls } = fakeServer([note('a', 0, false, '/mis-pagos')]);
    const { router } = await renderScreen();
    await userEvent.click(await screen.findByRole('link', { name: 'Acceder: Aviso a' }));
    expect(router.state.location.pathname).toBe('/mis-pagos');
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/notifications/read')?.body).toEqual({ ids: ['a'] }),
    );
    // The bell asks again once the server has it.
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notificaciones'));
  });

  it('never links outside the app', async () => {
    fakeServer([note('a', 0, false, '//evil.test/x')]);
    await renderScreen();
    const article = await screen.findByRole('article', { name: 'Aviso a (Sin leer)' });
    expect(within(article).queryByRole('link')).toBeNull();
  });

  it('renders a stored link that tricks or scripts as no link at all', async () => {
    const nasty = [
      '/\t/evil.test',
      '/\\evil.test',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'http://evil.test/',
      '\u0001/invoices',
      '/login',
    ];
    fakeServer(nasty.map((link, i) => note(`n${i}`, 0, false, link)));
    await renderScreen();
    for (const [i] of nasty.entries()) {
      const article = await screen.findByRole('article', { name: `Aviso n${i} (Sin leer)` });
      expect(within(article).queryByRole('link'), nasty[i]).toBeNull();
    }
  });

  it('opens an https address the provider linked, without giving it this page', async () => {
    fakeServer([note('a', 0, false, 'https://club.example/horarios')]);
    await renderScreen();
    const link = await screen.findByRole('link', { name: 'Acceder: Aviso a' });
    expect(link.getAttribute('href')).toBe('https://club.example/horarios');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('deletes one at once, and several after confirming', async () => {
    const server = fakeServer([
      note('a', 0, false),
      note('b', 0, true),
      note('c', 1, true),
      note('d', 3, false),
    ]);
    await renderScreen();
    const a = await screen.findByRole('article', { name: 'Aviso a (Sin leer)' });
    await userEvent.click(within(a).getByRole('button', { name: 'Eliminar: Aviso a' }));
    expect(await screen.findByText('1 notificación eliminada')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('article', { name: /Aviso a/ })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));

    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar' }));
    expect(screen.getByText('0 seleccionadas')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar: Aviso b' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar: Aviso d' }));
    expect(screen.getByText('2 seleccionadas')).toBeTruthy();
    const all = screen.getByRole('checkbox', { name: 'Seleccionar todas' }) as HTMLInputElement;
    expect(all.indeterminate).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Eliminar 2 notificaciones?' });
    // Cancel keeps everything.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog', { name: /Eliminar/ })).toBeNull();
    expect(server.calls.filter((c) => c.path === '/notifications/delete')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Eliminar' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: /Eliminar/ })).getByRole('button', {
        name: 'Eliminar',
      }),
    );
    expect(await screen.findByText('2 notificaciones eliminadas')).toBeTruthy();
    expect(server.calls.filter((c) => c.path === '/notifications/delete').at(-1)?.body).toEqual({
      ids: ['b', 'd'],
    });
    expect(server.notes().map((n) => n.id)).toEqual(['c']);
    // The mode ends with the change.
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('marks the chosen unread ones read, all at once', async () => {
    const server = fakeServer([note('a', 0, false), note('b', 0, true), note('c', 1, false)]);
    await renderScreen();
    await screen.findByRole('article', { name: 'Aviso b' });
    await userEvent.click(screen.getByRole('button', { name: 'Seleccionar' }));
    const markRead = screen.getByRole('button', { name: 'Marcar como leídas' });
    expect(markRead.hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Seleccionar todas' }));
    expect(screen.getByText('3 seleccionadas')).toBeTruthy();
    await userEvent.click(markRead);
    expect(await screen.findByText('2 notificaciones marcadas como leídas')).toBeTruthy();
    expect(server.calls.find((c) => c.path === '/notifications/read')?.body).toEqual({
      ids: ['a', 'c'],
    });
    await waitFor(() => expect(bell().getAttribute('aria-label')).toBe('Notificaciones'));
    expect(screen.getByText('No tienes notificaciones sin leer')).toBeTruthy();
  });

  it('loads the next page with "Ver más" and moves focus to the first new one', async () => {
    const notes = Array.from({ length: 5 }, (_, i) => note(`n${i}`, i * 3, true));
    const { calls } = fakeServer(notes, 3);
    await renderScreen();
    await screen.findByRole('article', { name: 'Aviso n2' });
    expect(screen.queryByRole('article', { name: 'Aviso n3' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Ver más' }));
    await screen.findByRole('article', { name: 'Aviso n3' });
    expect(calls.filter((c) => c.path === '/notifications').at(-1)?.body).toEqual({
      filter: 'all',
      page: '2',
    });
    await waitFor(() =>
      expect(document.activeElement?.getAttribute('aria-label')).toBe('Eliminar: Aviso n3'),
    );
    expect(screen.getByText('No hay más notificaciones')).toBeTruthy();
  });

  it('shows the empty text of spec §8', async () => {
    fakeServer([]);
    await renderScreen('/my-notifications?filter=unread');
    expect(await screen.findByText('No hay notificaciones')).toBeTruthy();
    expect(screen.getByText('Estás al día: no tienes notificaciones sin leer.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Seleccionar' })).toBeNull();
  });

  it('shows an error with a retry when the list cannot load, and a failed change', async () => {
    let fail = true;
    mockApi({
      '/notifications': () =>
        fail
          ? { status: 500, json: { code: 'internal_error' } }
          : { json: { notifications: [note('a', 0, false)], has_more: false, unread: 1 } },
      '/notifications/unread-count': () => ({ json: { unread: 1 } }),
      '/notifications/delete': () => ({ status: 500, json: { code: 'internal_error' } }),
    });
    await renderScreen();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('No se han podido cargar las notificaciones.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    const article = await screen.findByRole('article', { name: 'Aviso a (Sin leer)' });

    await userEvent.click(within(article).getByRole('button', { name: 'Eliminar: Aviso a' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'No se ha podido eliminar. Inténtalo de nuevo.',
    );
    expect(screen.getByRole('article', { name: 'Aviso a (Sin leer)' })).toBeTruthy();
  });

  it('speaks the chosen language, long dates included', async () => {
    fakeServer([note('a', 0, false), note('b', 20, true)]);
    await renderScreen('/my-notifications', 'en');
    await screen.findByRole('article', { name: 'Aviso b' });
    const list = screen.getByRole('region', { name: 'Notification list' });
    const days = within(list).getAllByRole('heading', { level: 2 });
    expect(days[0]?.textContent).toBe('Today');
    expect(days[1]?.textContent).toMatch(/^[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(within(list).getByRole('button', { name: 'Mark as read: Aviso a' })).toBeTruthy();
    await waitFor(() =>
      expect(
        within(screen.getByRole('banner'))
          .getByRole('link', { name: /^Notifications/ })
          .getAttribute('aria-label'),
      ).toBe('Notifications, 1 unread'),
    );
  });
});
