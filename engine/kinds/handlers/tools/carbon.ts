import { invalidParameter } from '../../../core/errors.js';
import { isLanguage, renderCarbon, THEMES } from '../../../features/tools/carbon/render.js';
import { pureHandler } from '../../../contract/handler.js';
import { FileOutput } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/** /api/tools/carbon: a code image as PNG (see ../carbon/render.ts). */
export default pureHandler<Params['tools/carbon']>(async ({ params }) => {
  if (params.language && !isLanguage(params.language)) throw invalidParameter('language', 'is not a language shiki knows (e.g. javascript, python, rust)');
  if (!THEMES.includes(params.theme)) throw invalidParameter('theme', `must be one of: ${THEMES.join(', ')}`);
  const { png } = await renderCarbon({
    code: params.code,
    language: params.language,
    theme: params.theme,
    background: params.background,
    padding: params.padding,
    windowControls: params.windowControls,
    lineNumbers: params.lineNumbers,
    fontSize: params.fontSize,
  });
  return new FileOutput(png, 'png', 'image/png');
});
