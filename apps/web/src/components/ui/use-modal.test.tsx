import { createElement, render } from 'preact';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useModal } from './use-modal';

function Modal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useModal(ref, open, onClose);
  return open ? (
    <div ref={ref} role="dialog" tabIndex={-1}>
      <button type="button">Cerrar</button>
    </div>
  ) : null;
}

const host = () => document.body.appendChild(document.createElement('div'));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('useModal', () => {
  // Preact's own render, without act(): what the browser gets between committing and painting.
  it('has focus inside and hears Escape as soon as the modal is in the page, before a frame', () => {
    const container = host();
    const onClose = vi.fn();
    render(createElement(Modal, { open: false, onClose }), container);
    render(createElement(Modal, { open: true, onClose }), container);
    const close = container.querySelector('button');
    expect(document.activeElement).toBe(close);
    close?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
    render(null, container);
  });
});
