import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Checkbox, TextField } from './text-field';
import { Spinner } from './spinner';

describe('TextField', () => {
  it('ties its error to the input and stays red while focused (review #19)', async () => {
    render(<TextField label="IBAN" error="El IBAN no es válido" />);
    const input = screen.getByLabelText('IBAN');
    await userEvent.click(input);
    expect(document.activeElement).toBe(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const errorId = input.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('El IBAN no es válido');
    // Border and focus ring are both red: the focus does not hide the error.
    expect(input.className).toContain('focus:outline-red-600');
    expect(input.className).not.toContain('focus:outline-primary-ink');
  });

  it('takes the primary ink for its focus ring when valid', () => {
    render(<TextField label="Alias" />);
    const input = screen.getByLabelText('Alias');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(input.className).toContain('focus:outline-primary-ink');
  });
});

describe('Checkbox', () => {
  it('is ticked from anywhere on its 44 px label row (review #26)', async () => {
    render(<Checkbox label="Acepto" />);
    const box = screen.getByRole('checkbox', { name: 'Acepto' }) as HTMLInputElement;
    const row = box.closest('label');
    expect(row?.className).toContain('min-h-11');
    await userEvent.click(screen.getByText('Acepto'));
    expect(box.checked).toBe(true);
  });
});

describe('Spinner', () => {
  it('is a status when labelled, decoration when not', () => {
    const { container } = render(
      <>
        <Spinner label="Cargando" />
        <Spinner size="sm" tone="current" />
      </>,
    );
    expect(screen.getByRole('status', { name: 'Cargando' })).toBeTruthy();
    expect(container.querySelectorAll('[aria-hidden="true"]')).toHaveLength(2);
  });
});
