import { useState } from 'preact/hooks';
import { ApiFailure } from './api.js';

/**
 * A form's submission: the default action stopped, busy while `action` runs, and its
 * failure kept as the message to show (the server's, for a refused call). `onFailure`
 * sees the error itself (the key form marks the fields a 400 names).
 */
export function useSubmit(action: () => Promise<void>, onFailure?: (err: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
      onFailure?.(err);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, submit };
}

/** A dialog form's buttons: submit (saying what it is doing while busy) and Cancel. */
export function FormActions({ busy, label, busyLabel, onCancel }: { busy: boolean; label: string; busyLabel: string; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="submit" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
