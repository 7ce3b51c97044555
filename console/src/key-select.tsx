import type { KeyRecord } from './types.js';

/** A choice of key for a filter: every key, the shared test key, or one key by label and id. */
export function KeySelect({ id, value, keys, onChange }: { id: string; value: string; keys: KeyRecord[]; onChange: (keyId: string) => void }) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      <option value="">Every key</option>
      <option value="test">Shared test key</option>
      {keys.map((k) => (
        <option key={k.id} value={k.id}>
          {k.label ? `${k.label} (${k.id})` : k.id}
        </option>
      ))}
    </select>
  );
}
