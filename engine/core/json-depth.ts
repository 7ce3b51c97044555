/**
 * How deeply a parsed JSON value may nest. JSON.parse itself copes with any depth, but
 * everything after it recurses (ajv, JSON.stringify, JMESPath, the tools), and a stack
 * overflow there is a 500 caused by the client. 64 levels is far beyond any real request.
 */
export const JSON_MAX_DEPTH = 64;

/** Whether `value` has arrays/objects nested more than `max` levels deep; iterative, so it cannot overflow itself. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
