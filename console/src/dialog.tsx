import { useEffect, useId, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

/**
 * A modal on the browser's own <dialog>: showModal() keeps the keyboard inside it and
 * makes the page behind inert, Escape closes it, and focus returns to the control that
 * opened it. Shown while mounted.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const mounted = useRef(true);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement as HTMLElement | null;
    dialog.showModal();
    return () => {
      // closed by the page (another dialog takes its place): its close event, which
      // arrives later, must not close whatever the page shows next
      mounted.current = false;
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={() => mounted.current && onClose()}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
