import { obfuscateJs } from '../../../features/tools/obfuscate.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * HTML obfuscation that keeps the page working: every inline classic or module
 * script is run through javascript-obfuscator, then the whole document is shipped
 * Base64-encoded inside an (also obfuscated) loader that document.write()s it back
 * while the page parses. Writing during parsing feeds the markup to the parser as if
 * it had been in the file: the same DOM, and the written scripts run in order.
 */

// a script element's raw text ends at the first "</script" (HTML parsing rules), which the non-greedy match mirrors
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

const JS_TYPES = /^(|text\/javascript|application\/javascript|module|text\/ecmascript)$/i;

function obfuscateInlineScripts(html: string): string {
  return html.replace(SCRIPT, (whole, attrs: string, body: string) => {
    if (/\bsrc\s*=/i.test(attrs) || !body.trim()) return whole;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? '';
    if (!JS_TYPES.test(type)) return whole;
    return `<script${attrs}>${obfuscateJs(body, 'html')}</script>`;
  });
}

export function obfuscateHtml(html: string): string {
  const withoutDoctype = html.replace(/^\s*<!doctype[^>]*>/i, '');
  const payload = Buffer.from(obfuscateInlineScripts(withoutDoctype), 'utf8').toString('base64');
  const loader = obfuscateJs(`document.write(new TextDecoder().decode(Uint8Array.from(atob(${JSON.stringify(payload)}), (c) => c.charCodeAt(0))));`, 'html');
  return `<!DOCTYPE html>\n<script>${loader}</script>\n`;
}

export default pureHandler<Params['tools/htmlobfuscate']>(({ params }) => obfuscateHtml(params.html));
