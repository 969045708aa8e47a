import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FilterPanel } from './filter-panel';

describe('FilterPanel', () => {
  it('is a labelled region whose phone disclosure shows the active count and toggles', async () => {
    render(
      <FilterPanel title="Filtros" activeCount={2}>
        <p>content</p>
      </FilterPanel>,
    );
    const toggle = screen.getByRole('button', { name: 'Filtros (2)' });
    const panel = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(screen.getByRole('region', { name: /Filtros/ })).toBeTruthy();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(panel?.className).toContain('hidden');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.className.split(' ')).not.toContain('hidden');
  });
});
