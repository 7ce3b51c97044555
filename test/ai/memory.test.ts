import t from 'tap';
import { ConversationMemory } from '../../engine/features/ai/memory.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { testDialects } from '../support/dialects.js';

const ai = { endpoint: 'GET /api/ai/ai', keyId: 'key_a' };
const contents = (messages: { content: string }[]) => messages.map((m) => m.content);

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: turns come back oldest first, per key, endpoint and session`, async (t) => {
    const memory = new ConversationMemory(await dialect.open(t));
    await memory.remember(ai, 's1', [
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
    ]);
    await memory.remember(ai, 's1', [
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'd' },
    ]);
    t.same(contents(await memory.recall(ai, 's1')), ['a', 'b', 'c', 'd']);
    t.same(await memory.recall(ai, 's2'), []);
    t.same(await memory.recall({ ...ai, endpoint: 'GET /api/ai/gpt4o' }, 's1'), [], 'scoped per endpoint');
    t.same(await memory.recall({ ...ai, keyId: 'key_b' }, 's1'), [], 'scoped per key: the same session id under another key is another conversation');
    await memory.remember({ ...ai, keyId: 'key_b' }, 's1', [{ role: 'user', content: 'other' }]);
    t.same(contents(await memory.recall(ai, 's1')), ['a', 'b', 'c', 'd'], 'and writes under another key leave this one alone');
    t.same(
      await memory.recall(ai, 's1'),
      [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
        { role: 'assistant', content: 'd' },
      ],
      'roles kept',
    );
  });

  t.test(`${dialect.name}: bounded: message count, message size and idle time`, async (t) => {
    const db = await dialect.open(t);
    let now = 1_000_000;
    const memory = new ConversationMemory(db, { maxMessages: 4, maxChars: 5, maxIdleMs: 1000 }, () => now);
    const scope = { endpoint: 'e', keyId: 'k' };
    for (const n of [1, 2, 3])
      await memory.remember(scope, 's', [
        { role: 'user', content: `q${n}` },
        { role: 'assistant', content: `answer number ${n}` },
      ]);
    t.same(contents(await memory.recall(scope, 's')), ['q2', 'answe', 'q3', 'answe'], 'last 4 kept, each cut to 5 chars');
    const count = async (session?: string) => {
      let query = db.kysely.selectFrom('ai_memory').select((eb) => eb.fn.countAll<number>().as('n'));
      if (session) query = query.where('session', '=', session);
      return Number((await query.executeTakeFirstOrThrow()).n);
    };
    t.equal(await count(), 4, 'older rows deleted, not just hidden');
    now += 1001;
    t.same(await memory.recall(scope, 's'), [], 'idle sessions are forgotten');
    await memory.remember(scope, 'other', [{ role: 'user', content: 'x' }]);
    t.equal(await count('s'), 0, 'and their rows removed on the next write');
  });

  t.test(`${dialect.name}: two instances on one database continue the same conversation`, async (t) => {
    const target = await dialect.target(t);
    const [a, b] = [openDatabase(target), openDatabase(target)];
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    await new ConversationMemory(a).remember(ai, 's', [{ role: 'user', content: 'on a' }]);
    await new ConversationMemory(b).remember(ai, 's', [{ role: 'user', content: 'on b' }]);
    t.same(contents(await new ConversationMemory(a).recall(ai, 's')), ['on a', 'on b']);
  });
}
