import path from 'node:path';
import t from 'tap';
import { KEY_PREFIX, newPersonalKey, personalKeyPattern } from '../../engine/platform/auth/key-format.js';
import { redactLogLine, redactUrl } from '../../engine/platform/auth/redact.js';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { openDatabase } from '../../engine/platform/db/database.js';

/** The one key format (engine/platform/auth/key-format.ts): what the store makes is what the redaction finds. */

t.test('a new key: the prefix and 43 base64url characters, different each time', async (t) => {
  const keys = new Set(Array.from({ length: 50 }, newPersonalKey));
  t.equal(keys.size, 50);
  for (const key of keys) t.match(key, /^mf_[A-Za-z0-9_-]{43}$/);
  t.equal(KEY_PREFIX, 'mf_');
});

t.test('the pattern finds a key, whole or cut short, and no ordinary text', async (t) => {
  const key = newPersonalKey();
  t.same(`a ${key}.`.match(personalKeyPattern()), [key]);
  t.same(`cut ${key.slice(0, 25)}`.match(personalKeyPattern()), [key.slice(0, 25)]);
  t.equal('mf_short and rmf_ text'.match(personalKeyPattern()), null);
  // a fresh RegExp each call: a search that stopped part-way leaves no lastIndex behind
  const first = personalKeyPattern();
  first.exec(`${key} ${key}`);
  t.equal(personalKeyPattern().lastIndex, 0);
});

t.test('a key the store makes is blanked in log lines and URLs under any name', async (t) => {
  const db = openDatabase({ file: path.join(t.testdir(), 'keys.db') });
  t.teardown(() => db.close());
  const store = new KeyStore(db);
  const { key } = await store.create({ label: 'format' });
  t.notMatch(redactLogLine(`failed for ${key}`), key);
  t.notMatch(redactUrl(`/api/x?q=${key}`), key);
});
