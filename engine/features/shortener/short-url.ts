import type { ShortLink } from './store.js';

/**
 * A link as the shortener endpoints answer it: `short` is `<PUBLIC_BASE_URL><prefix><code>`,
 * the prefix being the redirect endpoint's path (the manifests' `options.prefix`, /s/).
 * Whose it is stays out of the answer.
 */
export const describeLink = ({ ownerKeyId: _owner, ...link }: ShortLink, baseUrl: string, prefix = '/s/') => ({
  short: `${baseUrl}${prefix}${link.code}`,
  ...link,
});
