import t from 'tap';
import { connect, migrate } from '../../engine/storage/database.js';
import { ConversationMemory } from '../../engine/ai/memory.js';
import { tempDataDir } from '../support/serve.js';

const open = () => connect(`${tempDataDir('manifold-memory-')}/manifold.db`);

const ai = { endpoint: 'GET /api/ai/ai', keyId: 'key_a' };

t.test('turns come back oldest first, per key, endpoint and session', async (t) => {
  const db = open();
  t.teardown(() => db.close());
  const memory = new ConversationMemory(db);
  memory.remember(ai, 's1', [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }]);
  memory.remember(ai, 's1', [{ role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }]);
  t.same(memory.recall(ai, 's1').map((m) => m.content), ['a', 'b', 'c', 'd']);
  t.same(memory.recall(ai, 's2'), []);
  t.same(memory.recall({ ...ai, endpoint: 'GET /api/ai/gpt4o' }, 's1'), [], 'scoped per endpoint');
  t.same(memory.recall({ ...ai, keyId: 'key_b' }, 's1'), [], 'scoped per key: the same session id under another key is another conversation');
  memory.remember({ ...ai, keyId: 'key_b' }, 's1', [{ role: 'user', content: 'other' }]);
  t.same(memory.recall(ai, 's1').map((m) => m.content), ['a', 'b', 'c', 'd'], 'and writes under another key leave this one alone');
});

t.test('bounded: message count, message size and idle time', async (t) => {
  const db = open();
  t.teardown(() => db.close());
  let now = 1_000_000;
  const memory = new ConversationMemory(db, { maxMessages: 4, maxChars: 5, maxIdleMs: 1000 }, () => now);
  const scope = { endpoint: 'e', keyId: 'k' };
  for (const n of [1, 2, 3]) memory.remember(scope, 's', [{ role: 'user', content: `q${n}` }, { role: 'assistant', content: `answer number ${n}` }]);
  t.same(memory.recall(scope, 's').map((m) => m.content), ['q2', 'answe', 'q3', 'answe'], 'last 4 kept, each cut to 5 chars');
  t.equal((db.prepare('SELECT count(*) AS n FROM ai_memory').get() as { n: number }).n, 4, 'older rows deleted, not just hidden');
  now += 1001;
  t.same(memory.recall(scope, 's'), [], 'idle sessions are forgotten');
  memory.remember(scope, 'other', [{ role: 'user', content: 'x' }]);
  t.equal((db.prepare("SELECT count(*) AS n FROM ai_memory WHERE session = 's'").get() as { n: number }).n, 0, 'and their rows removed on the next write');
});

t.test('sessions stored before keys scoped them are reachable by no key', async (t) => {
  const db = open();
  t.teardown(() => db.close());
  // a database the first version of the memory wrote to
  migrate(db, 'ai/001-memory', `
    CREATE TABLE ai_memory (id INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, session TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')), content TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX ai_memory_session ON ai_memory (scope, session, id);
    CREATE INDEX ai_memory_created ON ai_memory (created_at);`);
  db.prepare('INSERT INTO ai_memory (scope, session, role, content, created_at) VALUES (?, ?, ?, ?, ?)').run(ai.endpoint, 's1', 'user', 'old', Date.now());
  const memory = new ConversationMemory(db);
  t.same(memory.recall(ai, 's1'), []);
  t.same(memory.recall({ ...ai, keyId: 'test' }, 's1'), []);
  memory.remember(ai, 's1', [{ role: 'user', content: 'new' }]);
  t.same(memory.recall(ai, 's1').map((m) => m.content), ['new']);
});
