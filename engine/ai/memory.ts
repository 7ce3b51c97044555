import { migrate, type Db } from '../storage/database.js';

/**
 * Optional conversation memory for the chat endpoints: the last turns of a client's
 * `session`, in SQLite. Bounded three ways so it cannot grow without limit: at most
 * `maxMessages` per session (older ones are deleted on write), each message cut to
 * `maxChars`, and sessions idle for longer than `maxIdleMs` are forgotten.
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

const SCHEMA = `
CREATE TABLE ai_memory (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  scope TEXT NOT NULL,
  session TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX ai_memory_session ON ai_memory (scope, session, id);
CREATE INDEX ai_memory_created ON ai_memory (created_at);
`;

// Rows from before keys scoped sessions get key '' (no key has that id): unreachable, and gone within maxIdleMs.
const PER_KEY = `
ALTER TABLE ai_memory ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
DROP INDEX ai_memory_session;
CREATE INDEX ai_memory_session ON ai_memory (key_id, scope, session, id);
`;

export class ConversationMemory {
  private readonly history: (scope: MemoryScope, session: string, since: number, limit: number) => ChatMessage[];
  private readonly save: (scope: MemoryScope, session: string, messages: ChatMessage[], now: number) => void;

  constructor(
    db: Db,
    private readonly limits: MemoryLimits = DEFAULT_MEMORY_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    migrate(db, 'ai/001-memory', SCHEMA);
    migrate(db, 'ai/002-memory-per-key', PER_KEY);
    const select = db.prepare(
      `SELECT role, content FROM (
         SELECT id, role, content FROM ai_memory WHERE key_id = ? AND scope = ? AND session = ? AND created_at >= ? ORDER BY id DESC LIMIT ?
       ) ORDER BY id`,
    );
    const insert = db.prepare('INSERT INTO ai_memory (key_id, scope, session, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    const trim = db.prepare(
      `DELETE FROM ai_memory WHERE key_id = ? AND scope = ? AND session = ? AND id NOT IN (
         SELECT id FROM ai_memory WHERE key_id = ? AND scope = ? AND session = ? ORDER BY id DESC LIMIT ?)`,
    );
    const expire = db.prepare('DELETE FROM ai_memory WHERE created_at < ?');
    this.history = ({ keyId, endpoint }, session, since, limit) => select.all(keyId, endpoint, session, since, limit) as ChatMessage[];
    this.save = db.transaction(({ keyId, endpoint }: MemoryScope, session: string, messages: ChatMessage[], now: number) => {
      for (const m of messages) insert.run(keyId, endpoint, session, m.role, m.content.slice(0, this.limits.maxChars), now);
      trim.run(keyId, endpoint, session, keyId, endpoint, session, this.limits.maxMessages);
      expire.run(now - this.limits.maxIdleMs);
    });
  }

  /** The session's remembered turns, oldest first. */
  recall(scope: MemoryScope, session: string): ChatMessage[] {
    return this.history(scope, session, this.now() - this.limits.maxIdleMs, this.limits.maxMessages);
  }

  /** Remember one exchange. */
  remember(scope: MemoryScope, session: string, messages: ChatMessage[]): void {
    this.save(scope, session, messages, this.now());
  }
}
