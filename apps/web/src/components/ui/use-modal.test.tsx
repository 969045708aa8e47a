import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
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
  // React's own commit, without act(): what the browser gets between committing and painting.
  it('has focus inside and hears Escape as soon as the modal is in the page, before a frame', () => {
    const root = createRoot(host());
    const onClose = vi.fn();
    flushSync(() => root.render(<Modal open={false} onClose={onClose} />));
    flushSync(() => root.render(<Modal open onClose={onClose} />));
    const container = document.body;
    const close = container.querySelector('button');
    expect(document.activeElement).toBe(close);
    close?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(onClose).toHaveBeenCalledTimes(1);
    root.unmount();
  });
});
