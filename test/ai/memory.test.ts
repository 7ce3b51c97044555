import t from 'tap';
import { connect } from '../../engine/storage/database.js';
import { ConversationMemory } from '../../engine/ai/memory.js';
import { tempDataDir } from '../support/serve.js';

const open = () => connect(`${tempDataDir('manifold-memory-')}/manifold.db`);

t.test('turns come back oldest first, per scope and session', async (t) => {
  const db = open();
  t.teardown(() => db.close());
  const memory = new ConversationMemory(db);
  memory.remember('GET /api/ai/ai', 's1', [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }]);
  memory.remember('GET /api/ai/ai', 's1', [{ role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }]);
  t.same(memory.recall('GET /api/ai/ai', 's1').map((m) => m.content), ['a', 'b', 'c', 'd']);
  t.same(memory.recall('GET /api/ai/ai', 's2'), []);
  t.same(memory.recall('GET /api/ai/gpt4o', 's1'), [], 'scoped per endpoint');
});

t.test('bounded: message count, message size and idle time', async (t) => {
  const db = open();
  t.teardown(() => db.close());
  let now = 1_000_000;
  const memory = new ConversationMemory(db, { maxMessages: 4, maxChars: 5, maxIdleMs: 1000 }, () => now);
  for (const n of [1, 2, 3]) memory.remember('e', 's', [{ role: 'user', content: `q${n}` }, { role: 'assistant', content: `answer number ${n}` }]);
  t.same(memory.recall('e', 's').map((m) => m.content), ['q2', 'answe', 'q3', 'answe'], 'last 4 kept, each cut to 5 chars');
  t.equal((db.prepare('SELECT count(*) AS n FROM ai_memory').get() as { n: number }).n, 4, 'older rows deleted, not just hidden');
  now += 1001;
  t.same(memory.recall('e', 's'), [], 'idle sessions are forgotten');
  memory.remember('e', 'other', [{ role: 'user', content: 'x' }]);
  t.equal((db.prepare("SELECT count(*) AS n FROM ai_memory WHERE session = 's'").get() as { n: number }).n, 0, 'and their rows removed on the next write');
});
