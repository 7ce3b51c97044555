import { readyDatabase, type Database, type DatabaseSource } from '../../platform/db/database.js';

/**
 * Optional conversation memory for the chat endpoints: the last turns of a client's
 * `session`, in the engine's database (SQLite, or PostgreSQL shared by every
 * instance, so a conversation continues whichever instance answers). Bounded three
 * ways so it cannot grow without limit: at most `maxMessages` per session (older ones
 * are deleted on write), each message cut to `maxChars`, and sessions idle for longer
 * than `maxIdleMs` are forgotten.
 *
 * Sessions are scoped per API key and endpoint: another key that sends the same session
 * id starts a conversation of its own and never sees this one. Within one key a session
 * id is all it takes to continue a conversation (everyone using the shared test key
 * shares its sessions), so clients should use long random ids.
 */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface MemoryLimits {
  maxMessages: number;
  maxChars: number;
  maxIdleMs: number;
}

/** Whose conversations: the endpoint and the opaque id of the caller's key (Call.caller.keyId). */
export interface MemoryScope {
  endpoint: string;
  keyId: string;
}

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = { maxMessages: 20, maxChars: 8000, maxIdleMs: 24 * 60 * 60 * 1000 };

export class ConversationMemory {
  readonly #db: () => Promise<Database>;

  /** On the engine's database, or on one given database (tests). */
  constructor(
    source: DatabaseSource,
    private readonly limits: MemoryLimits = DEFAULT_MEMORY_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.#db = () => readyDatabase(source);
  }

  /** The session's remembered turns, oldest first. */
  async recall({ keyId, endpoint }: MemoryScope, session: string): Promise<ChatMessage[]> {
    const { kysely } = await this.#db();
    const recent = kysely
      .selectFrom('ai_memory')
      .select(['id', 'role', 'content'])
      .where('key_id', '=', keyId)
      .where('scope', '=', endpoint)
      .where('session', '=', session)
      .where('created_at', '>=', this.now() - this.limits.maxIdleMs)
      .orderBy('id', 'desc')
      .limit(this.limits.maxMessages)
      .as('recent');
    return kysely.selectFrom(recent).select(['role', 'content']).orderBy('id').execute();
  }

  /** Remember one exchange. */
  async remember({ keyId, endpoint }: MemoryScope, session: string, messages: ChatMessage[]): Promise<void> {
    const now = this.now();
    const { kysely } = await this.#db();
    await kysely.transaction().execute(async (trx) => {
      const rows = messages.map((m) => ({
        key_id: keyId,
        scope: endpoint,
        session,
        role: m.role,
        content: m.content.slice(0, this.limits.maxChars),
        created_at: now,
      }));
      if (rows.length > 0) await trx.insertInto('ai_memory').values(rows).execute();
      const kept = trx
        .selectFrom('ai_memory')
        .select('id')
        .where('key_id', '=', keyId)
        .where('scope', '=', endpoint)
        .where('session', '=', session)
        .orderBy('id', 'desc')
        .limit(this.limits.maxMessages);
      await trx
        .deleteFrom('ai_memory')
        .where('key_id', '=', keyId)
        .where('scope', '=', endpoint)
        .where('session', '=', session)
        .where('id', 'not in', kept)
        .execute();
      await trx
        .deleteFrom('ai_memory')
        .where('created_at', '<', now - this.limits.maxIdleMs)
        .execute();
    });
  }
}
