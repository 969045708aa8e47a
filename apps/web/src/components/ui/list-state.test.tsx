import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DocumentIcon } from './icons';
import { ListState, type ListQuery, type MoreQuery } from './list-state';

const texts = { loading: 'Cargando…', loadError: 'No se pudo cargar', retry: 'Reintentar' };
const empty = { icon: DocumentIcon, title: 'Sin facturas', hint: 'Prueba otro filtro' };
const moreTexts = { viewMore: 'Ver más', noMore: 'No hay más', loadMoreError: 'Falló' };

function query(state: Partial<ListQuery>): ListQuery {
  return { isPending: false, isError: false, data: [], refetch: vi.fn(), ...state };
}

function more(state: Partial<MoreQuery> = {}): MoreQuery {
  return {
    hasNextPage: true,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
    fetchNextPage: vi.fn(),
    ...state,
  };
}

function renderList(props: {
  query: ListQuery;
  isEmpty?: boolean;
  more?: MoreQuery;
  beforeLoadMore?: () => void;
}) {
  return render(
    <ListState
      query={props.query}
      isEmpty={props.isEmpty ?? false}
      skeleton={<span>placeholders</span>}
      empty={empty}
      texts={texts}
      more={
        props.more
          ? { query: props.more, beforeLoadMore: props.beforeLoadMore, texts: moreTexts }
          : undefined
      }
    >
      <ul aria-label="items">
        <li>F-1</li>
      </ul>
    </ListState>,
  );
}

describe('ListState (spec §4 and §8: every state of a list)', () => {
  it('announces the placeholders as loading while the first page loads', () => {
    renderList({ query: query({ isPending: true, data: undefined }) });
    expect(screen.getByRole('status', { name: texts.loading }).textContent).toBe('placeholders');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says the first page failed, and retries it', async () => {
    const failed = query({ isError: true, data: undefined });
    renderList({ query: failed });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(texts.loadError);
    await userEvent.click(screen.getByRole('button', { name: texts.retry }));
    expect(failed.refetch).toHaveBeenCalledOnce();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('keeps what was loaded when a later refresh fails', () => {
    renderList({ query: query({ isError: true, data: [{}] }) });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('list', { name: 'items' })).toBeTruthy();
  });

  it('says what is empty and what to do', () => {
    renderList({ query: query({}), isEmpty: true });
    expect(screen.getByText(empty.title)).toBeTruthy();
    expect(screen.getByText(empty.hint)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows the items without a footer when the list is not paginated', () => {
    renderList({ query: query({}) });
    expect(screen.getByRole('list', { name: 'items' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('asks for the next page after its preparation, and says when there is no more', async () => {
    const order: string[] = [];
    const next = more({ fetchNextPage: vi.fn(() => order.push('fetch')) });
    const { rerender } = renderList({
      query: query({}),
      more: next,
      beforeLoadMore: () => order.push('before'),
    });
    await userEvent.click(screen.getByRole('button', { name: moreTexts.viewMore }));
    expect(order).toEqual(['before', 'fetch']);
    rerender(
      <ListState
        query={query({})}
        isEmpty={false}
        skeleton={null}
        empty={empty}
        texts={texts}
        more={{ query: more({ hasNextPage: false }), texts: moreTexts }}
      >
        <ul aria-label="items" />
      </ListState>,
    );
    expect(screen.getByText(moreTexts.noMore)).toBeTruthy();
  });

  it("shows a later page's failure in the footer, with a retry, keeping the items", async () => {
    const next = more({ isFetchNextPageError: true });
    renderList({ query: query({}), more: next });
    expect(screen.getByRole('alert').textContent).toBe(moreTexts.loadMoreError);
    expect(screen.getByRole('list', { name: 'items' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: texts.retry }));
    expect(next.fetchNextPage).toHaveBeenCalledOnce();
  });
});
