import { useState } from 'preact/hooks';
import { FormActions, useSubmit } from '../form.js';
import { ErrorMessage } from '../page-heading.js';

/** Grace periods a host usually picks; any other number of seconds can be typed. */
const GRACES = [
  { seconds: 0, label: 'None: the current key stops at once' },
  { seconds: 3_600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days (the most)' },
];

/** How long the current secret keeps working after a rotation (POST /api/admin/keys/:id/rotate {grace_seconds}). */
export function RotateForm({ onSubmit, onCancel }: { onSubmit: (graceSeconds: number) => Promise<void>; onCancel: () => void }) {
  const [grace, setGrace] = useState('86400');
  const { busy, error, submit } = useSubmit(() => onSubmit(Number(grace)));
  return (
    <form onSubmit={submit}>
      <p>The key gets a new secret; its id, rules, usage and jobs stay.</p>
      <div class="field">
        <label for="rotate-grace">Grace for the current secret (seconds)</label>
        <input
          id="rotate-grace"
          type="number"
          min={0}
          list="rotate-graces"
          value={grace}
          onInput={(e) => setGrace(e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined}
        />
        <datalist id="rotate-graces">
          {GRACES.map((g) => (
            <option key={g.seconds} value={String(g.seconds)} label={g.label} />
          ))}
        </datalist>
        <p class="help">0: refused at once; 86400: a day; at most 30 days.</p>
      </div>
      <ErrorMessage error={error} />
      <FormActions busy={busy} label="Rotate" busyLabel="Rotating…" onCancel={onCancel} />
    </form>
  );
}
