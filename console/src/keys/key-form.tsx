import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { FormActions, useSubmit } from '../form.js';
import { ErrorMessage } from '../page-heading.js';
import type { KeyRecord } from '../types.js';

/**
 * The fields of a key, as the admin API takes them (POST and PUT /api/admin/keys):
 * tier, label, owner note, its own requests per minute and per day, expiry, allowed
 * endpoints and allowed addresses. The server validates; its 400 names the field,
 * which is marked here (aria-invalid, the problem read out with the field).
 */

export interface KeyFormValues {
  tier: string;
  label: string;
  note: string;
  rpm: string;
  daily: string;
  expires_at: string;
  allow: string;
  ips: string;
}

const TIERS = ['personal', 'test'];

export function formValues(key?: KeyRecord): KeyFormValues {
  return {
    tier: key?.tier ?? 'personal',
    label: key?.label ?? '',
    note: key?.note ?? '',
    rpm: key?.rpm?.toString() ?? '',
    daily: key?.daily?.toString() ?? '',
    expires_at: key?.expiresAt ?? '',
    allow: key?.allow?.join(', ') ?? '',
    ips: key?.ips?.join(', ') ?? '',
  };
}

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
/** A number field as the API takes it: a number where one is written, null where it is empty (the tier's). */
const int = (text: string) => (text.trim() === '' ? null : Number(text));

/** The body of a request: every field for a new key; for an edit only those changed (null clears one). */
export function requestBody(values: KeyFormValues, before?: KeyFormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {
    tier: values.tier,
    label: values.label.trim() || null,
    note: values.note.trim() || null,
    rpm: int(values.rpm),
    daily: int(values.daily),
    expires_at: values.expires_at.trim() || null,
    allow: list(values.allow).length ? list(values.allow) : null,
    ips: list(values.ips).length ? list(values.ips) : null,
  };
  if (!before) return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
  const old = requestBody(before);
  return Object.fromEntries(Object.entries(body).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify(old[name] ?? null)));
}

interface FieldProps {
  name: keyof KeyFormValues;
  label: string;
  help?: string;
  values: KeyFormValues;
  problems: Record<string, string>;
  set: (name: keyof KeyFormValues, value: string) => void;
  type?: 'text' | 'number';
  multiline?: boolean;
}

function Field({ name, label, help, values, problems, set, type = 'text', multiline }: FieldProps) {
  const id = `key-${name}`;
  const described = [help && `${id}-help`, problems[name] && `${id}-problem`].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value: values[name],
    'aria-invalid': problems[name] ? ('true' as const) : undefined,
    'aria-describedby': described,
    onInput: (e: Event) => set(name, (e.currentTarget as HTMLInputElement).value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? <textarea rows={2} {...common} /> : type === 'number' ? <input type="number" min={0} {...common} /> : <input type="text" {...common} />}
      {help && (
        <p id={`${id}-help`} class="help">
          {help}
        </p>
      )}
      {problems[name] && (
        <p id={`${id}-problem`} class="error">
          {problems[name]}
        </p>
      )}
    </div>
  );
}

export function KeyForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: KeyFormValues;
  submitLabel: string;
  onSubmit: (values: KeyFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const set = (name: keyof KeyFormValues, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const props = { values, problems, set };
  const { busy, error, submit } = useSubmit(
    () => {
      setProblems({});
      return onSubmit(values);
    },
    (err) => {
      if (!(err instanceof ApiFailure)) return;
      setProblems(err.params);
      // the first field the server named takes the focus once marked, so its problem is read out
      const named = Object.keys(err.params)[0];
      if (named) requestAnimationFrame(() => (document.getElementById(`key-${named}`) as HTMLElement | null)?.focus());
    },
  );

  return (
    <form onSubmit={submit} class="key-form" noValidate>
      <div class="field">
        <label for="key-tier">Tier</label>
        <select id="key-tier" name="tier" value={values.tier} onChange={(e) => set('tier', e.currentTarget.value)}>
          {TIERS.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <Field name="label" label="Label" help="Shown to the key's holder by /checkapikey." {...props} />
      <Field name="note" label="Owner note" help="For you only: never shown to the key's holder." multiline {...props} />
      <Field name="rpm" label="Requests per minute" type="number" help="Empty: the tier's." {...props} />
      <Field name="daily" label="Requests per day (UTC)" type="number" help="Empty: the tier's." {...props} />
      <Field name="expires_at" label="Expires at" help="A day (2026-12-01, from 00:00 UTC) or an ISO-8601 time; empty: never." {...props} />
      <Field
        name="allow"
        label="Allowed endpoints"
        help="Categories or path patterns, comma-separated: ai, /api/download/*. Empty: every endpoint."
        {...props}
      />
      <Field name="ips" label="Allowed addresses" help="IP addresses or CIDR blocks, comma-separated: 10.0.0.0/8, 203.0.113.7. Empty: anywhere." {...props} />
      <ErrorMessage error={error} />
      <FormActions busy={busy} label={submitLabel} busyLabel="Saving…" onCancel={onCancel} />
    </form>
  );
}
