import { useRef, useState } from 'preact/hooks';
import { Dialog } from '../dialog.js';
import { time } from '../format.js';
import type { KeyWithSecret } from '../types.js';

/** A new secret (a created or rotated key), shown this once: the server keeps only its hash. */
export function SecretDialog({ created, onClose }: { created: KeyWithSecret; onClose: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  async function copy() {
    input.current!.select();
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      // no clipboard access (not a secure context): the text stays selected for Ctrl+C
    }
  }
  return (
    <Dialog title={created.previousValidUntil === undefined ? 'Key created' : 'Key rotated'} onClose={onClose}>
      <p>Copy the key now: it is not shown again.</p>
      <div class="field">
        <label for="new-secret">Key {created.label ? `for ${created.label}` : created.id}</label>
        <input id="new-secret" ref={input} readOnly value={created.key} class="secret" onFocus={(e) => e.currentTarget.select()} />
      </div>
      {created.previousValidUntil !== undefined && (
        <p>{created.previousValidUntil ? `The previous key works until ${time(created.previousValidUntil)}.` : 'The previous key no longer works.'}</p>
      )}
      <p role="status">{copied ? 'Copied to the clipboard.' : ''}</p>
      <div class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="quiet" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}
