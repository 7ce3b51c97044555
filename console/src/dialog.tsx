import { useEffect, useId, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/**
 * A modal on the browser's own <dialog>: showModal() keeps the keyboard inside it and
 * makes the page behind inert, Escape closes it, and focus returns to the control that
 * opened it. Shown while mounted.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
