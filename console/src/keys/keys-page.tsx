import { useEffect, useState } from 'preact/hooks';
import { ColumnHeads } from '../column-heads.js';
import { api } from '../api.js';
import { Dialog } from '../dialog.js';
import { count } from '../format.js';
import { When } from '../when.js';
import { ErrorMessage, PageHeading } from '../page-heading.js';
import type { KeyRecord, KeyWithSecret } from '../types.js';
import { formValues, KeyForm, requestBody } from './key-form.js';
import { RotateForm } from './rotate-form.js';
import { SecretDialog } from './secret-dialog.js';

const KEYS = '/api/admin/keys';

type Open = { kind: 'create' } | { kind: 'edit' | 'rotate' | 'revoke'; key: KeyRecord } | { kind: 'secret'; key: KeyWithSecret };

const state = (key: KeyRecord) => (key.revokedAt ? 'revoked' : key.expiresAt && Date.parse(key.expiresAt) <= Date.now() ? 'expired' : 'active');
const name = (key: KeyRecord) => key.label ?? key.id;

/** Keys: every key with its rules, and creating, editing, rotating and revoking them. */
export function KeysPage({ title }: { title: string }) {
  const [keys, setKeys] = useState<KeyRecord[] | undefined>();
  const [error, setError] = useState<unknown>();
  const [open, setOpen] = useState<Open | undefined>();
  const [message, setMessage] = useState('');
  const [showRevoked, setShowRevoked] = useState(false);

  const load = () =>
    api.get<KeyRecord[]>(KEYS).then(
      (list) => (setKeys(list), setError(undefined)),
      (err) => setError(err),
    );
  useEffect(() => void load(), []);
  const close = () => setOpen(undefined);
  const done = async (text: string, next?: Open) => {
    setMessage(text);
    setOpen(next);
    await load();
  };

  const shown = keys?.filter((k) => showRevoked || !k.revokedAt);
  return (
    <>
      <PageHeading title={title}>
        <button type="button" onClick={() => setOpen({ kind: 'create' })}>
          New key
        </button>
      </PageHeading>
      <p role="status" class="status">
        {message}
      </p>
      <ErrorMessage error={error} />
      <label class="inline">
        <input type="checkbox" checked={showRevoked} onChange={(e) => setShowRevoked(e.currentTarget.checked)} /> Show revoked keys
      </label>
      {shown && shown.length === 0 && <p>No keys yet. The shared test key (TEST_API_KEY) is not listed here.</p>}
      {shown && shown.length > 0 && (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">API keys</caption>
            <ColumnHeads
              columns={[
                'Key',
                'Tier',
                'Per minute',
                'Per day',
                'Expires',
                'Allowed endpoints',
                'Allowed addresses',
                'Created',
                'Last used',
                'State',
                'Actions',
              ]}
            />
            <tbody>
              {shown.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <th scope="row">
                    {key.label ?? <span class="muted">no label</span>}
                    <br />
                    <code class="id">{key.id}</code>
                    {key.note && <p class="note">{key.note}</p>}
                  </th>
                  <td>{key.tier}</td>
                  <td>{key.rpm === null ? <span class="muted">tier's</span> : count(key.rpm)}</td>
                  <td>{key.daily === null ? <span class="muted">tier's</span> : count(key.daily)}</td>
                  <td>
                    <When iso={key.expiresAt} none="never" />
                  </td>
                  <td>{key.allow ? key.allow.join(', ') : <span class="muted">all</span>}</td>
                  <td>{key.ips ? key.ips.join(', ') : <span class="muted">any</span>}</td>
                  <td>
                    <When iso={key.createdAt} />
                  </td>
                  <td>
                    <When iso={key.lastUsedAt} />
                  </td>
                  <td>
                    <span class={`badge ${state(key)}`}>{state(key)}</span>
                  </td>
                  <td class="row-actions">
                    {!key.revokedAt && (
                      <>
                        <button type="button" class="small" onClick={() => setOpen({ kind: 'edit', key })} aria-label={`Edit ${name(key)}`}>
                          Edit
                        </button>
                        <button type="button" class="small" onClick={() => setOpen({ kind: 'rotate', key })} aria-label={`Rotate ${name(key)}`}>
                          Rotate
                        </button>
                        <button type="button" class="small danger" onClick={() => setOpen({ kind: 'revoke', key })} aria-label={`Revoke ${name(key)}`}>
                          Revoke
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {open?.kind === 'create' && (
        <Dialog title="New key" onClose={close}>
          <KeyForm
            initial={formValues()}
            submitLabel="Create key"
            onCancel={close}
            onSubmit={async (values) => {
              const created = await api.post<KeyWithSecret>(KEYS, requestBody(values));
              await done(`Created ${name(created)}.`, { kind: 'secret', key: created });
            }}
          />
        </Dialog>
      )}
      {open?.kind === 'edit' && (
        <Dialog title={`Edit ${name(open.key)}`} onClose={close}>
          <KeyForm
            initial={formValues(open.key)}
            submitLabel="Save"
            onCancel={close}
            onSubmit={async (values) => {
              const before = formValues(open.key);
              const body = requestBody(values, before);
              if (Object.keys(body).length) await api.put(`${KEYS}/${encodeURIComponent(open.key.id)}`, body);
              await done(Object.keys(body).length ? `Saved ${name(open.key)}.` : 'Nothing changed.');
            }}
          />
        </Dialog>
      )}
      {open?.kind === 'rotate' && (
        <Dialog title={`Rotate ${name(open.key)}`} onClose={close}>
          <RotateForm
            onCancel={close}
            onSubmit={async (grace) => {
              const rotated = await api.post<KeyWithSecret>(`${KEYS}/${encodeURIComponent(open.key.id)}/rotate`, { grace_seconds: grace });
              await done(`Rotated ${name(open.key)}.`, { kind: 'secret', key: { ...rotated, previousValidUntil: rotated.previousValidUntil ?? null } });
            }}
          />
        </Dialog>
      )}
      {open?.kind === 'revoke' && <RevokeDialog keyRecord={open.key} onClose={close} onRevoked={() => done(`Revoked ${name(open.key)}.`)} />}
      {open?.kind === 'secret' && <SecretDialog created={open.key} onClose={close} />}
    </>
  );
}

function RevokeDialog({ keyRecord, onClose, onRevoked }: { keyRecord: KeyRecord; onClose: () => void; onRevoked: () => Promise<void> }) {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function revoke() {
    setBusy(true);
    try {
      await api.delete(`${KEYS}/${encodeURIComponent(keyRecord.id)}`);
      await onRevoked();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  return (
    <Dialog title={`Revoke ${name(keyRecord)}?`} onClose={onClose}>
      <p>Every request with this key is refused from its next one, on every instance. This cannot be undone.</p>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={revoke}>
          Revoke
        </button>
        <button type="button" class="quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
