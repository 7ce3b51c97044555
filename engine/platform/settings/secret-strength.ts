/**
 * Tokens a host sets for the admin routes and the metrics scrape are checked at boot: a
 * placeholder copied from an example (`change-me-admin`), a short word or a run of one
 * character stops the start with a message naming the variable and how to make a real one.
 *
 * Not a password-strength estimator: zxcvbn (a dependency, for /api/checker/password) takes
 * seconds to load its dictionaries here and rates `change-me-to-something-long` strong. A
 * token is something a machine generates, so the rule asks for what `openssl rand` gives:
 * enough characters, once the placeholder words are taken out, with some variety and not
 * a sequence.
 */

/** The variables checked, each a bearer secret. */
export const CHECKED_SECRETS = ['ADMIN_TOKEN', 'METRICS_TOKEN'] as const;

export const MIN_SECRET_LENGTH = 16;
const MIN_DISTINCT = 6;

/** Words of placeholders and guessable tokens, compared without case or separators. */
const PLACEHOLDER_WORDS = [
  'changeme',
  'changethis',
  'replaceme',
  'placeholder',
  'example',
  'sample',
  'secret',
  'password',
  'passwd',
  'admin',
  'token',
  'default',
  'metrics',
  'manifold',
  'qwerty',
  'asdf',
  'letmein',
  'test',
];

/** Why `value` is too weak to guard a route, or undefined when it will do. */
export function weakSecretReason(value: string): string | undefined {
  if (value.length < MIN_SECRET_LENGTH) return `shorter than ${MIN_SECRET_LENGTH} characters`;
  let rest = value.toLowerCase().replace(/[^a-z0-9]/g, '');
  const words = PLACEHOLDER_WORDS.filter((word) => rest.includes(word));
  for (const word of words) rest = rest.replaceAll(word, '');
  if (rest.length < MIN_SECRET_LENGTH) return words.length ? `a placeholder (${words.join(', ')})` : `fewer than ${MIN_SECRET_LENGTH} letters and digits`;
  if (new Set(rest).size < MIN_DISTINCT) return 'too few different characters';
  // "abcdefgh…", "0123…", "aaaa…": most neighbours one code point apart or equal
  let close = 0;
  for (let i = 1; i < rest.length; i++) if (Math.abs(rest.charCodeAt(i) - rest.charCodeAt(i - 1)) <= 1) close++;
  if (close * 2 >= rest.length - 1) return 'a sequence';
  return undefined;
}

/** Throws naming the first weak secret among those set in `env`. */
export function checkSecrets(env: Readonly<Record<string, string | undefined>>): void {
  for (const name of CHECKED_SECRETS) {
    const value = env[name];
    if (!value) continue;
    const why = weakSecretReason(value);
    if (why) throw new Error(`${name} is too weak (${why}): set it to a long random value, made with \`openssl rand -hex 32\``);
  }
}
