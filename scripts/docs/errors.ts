import { ERROR_CODES, type ErrorCodeRow } from '../../engine/core/error-codes.js';
import { cell, code, generatedNote } from './markdown.js';

/**
 * docs/using/errors.md: every error code from the engine's one table (engine/core/error-codes.ts,
 * which ApiError takes its status from and /openapi.json documents), by status.
 */
export function errorsDoc(): string {
  const rows = (Object.entries(ERROR_CODES) as [string, ErrorCodeRow][]).sort(([, a], [, b]) => a.status - b.status);
  const answered = rows.filter(([, row]) => row.answered !== false);
  const unanswered = rows.filter(([, row]) => row.answered === false);
  const lines = [
    '# Errors',
    '',
    generatedNote('npm run docs:generate', "the engine's error-code table (engine/core/error-codes.ts)"),
    '',
    'Every error answer is the JSON envelope, with the same number in `status` as the HTTP status:',
    '',
    '    {"status": 400, "success": false, "creator": "Manifold",',
    '     "error": "missing_parameter", "message": "Missing required parameter: url",',
    '     "details": [{"param": "url", "problem": "required"}]}',
    '',
    '`error` is a stable snake_case code: test it, not the message, which is one human sentence and may change. `details`',
    "is optional; for a parameter's fault it names the parameter (`details[].param`, `body` for the body itself). A 429 and",
    "most 503s carry `Retry-After` in seconds; a 405 carries `Allow`. A 500's message never holds a stack trace: its",
    '`X-Request-Id` finds it in the server log. Errors before the first byte of a streamed answer are envelopes too; the',
    'envelope of the whole contract: [The contract](contract.md).',
    '',
    `The ${answered.length} codes a client can receive, from the same table the engine answers from and \`/openapi.json\` documents:`,
    '',
    '| status | `error` | when |',
    '|---|---|---|',
    ...answered.map(([name, row]) => `| ${row.status} | ${code(name)} | ${cell(row.meaning)} |`),
    '',
  ];
  if (unanswered.length)
    lines.push(
      'Codes in the table a client never receives (each says why):',
      '',
      ...unanswered.map(([name, row]) => `- ${code(name)} (${row.status}): ${row.meaning}`),
      '',
    );
  return lines.join('\n');
}
