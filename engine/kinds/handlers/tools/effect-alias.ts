import { runTemplate } from '../../../features/effects/run-template.js';
import type { Template } from '../../../features/effects/template.generated.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * An effect under another path (endpoints/effects/alias-*.yaml): the template given in
 * `options.template` (the manifest's family item, read from templates/ at build time, so the
 * compiled registry carries it), rendered as its own endpoint renders it (effects/run-template.ts):
 * the text, or the photo at `url`, in the shared render pool and cache, hosted `{image_url, …}`
 * or the bytes with stream=true. A code endpoint rather than a second `effect` one, so the
 * gallery keeps one card per template.
 */
export default handler<Params['tools/effect-alias']>(async ({ options, call, setup }) => runTemplate(setup, call, options.template as Template));
