import { minify as terser } from 'terser';
import { minify as csso } from 'csso';
import { minify as htmlMinifier } from 'html-minifier-terser';
import { invalidParameter } from '../../../core/errors.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** The minify family: terser (JavaScript), csso (CSS), html-minifier-terser (HTML, inline CSS/JS too). */

const sizes = (code: string, output: string) => ({ result: output, originalSize: Buffer.byteLength(code), minifiedSize: Buffer.byteLength(output) });

export const js = pureHandler<Params['tools/minify#js']>(async ({ params }) => {
  try {
    const out = await nestingLimited('code', () => terser(params.code, { compress: true, mangle: true }));
    return sizes(params.code, out.code ?? '');
  } catch (err) {
    if ((err as { status?: number }).status) throw err;
    throw invalidParameter('code', `is not valid JavaScript (${(err as Error).message})`);
  }
});

export const css = pureHandler<Params['tools/minify#css']>(({ params }) => nestingLimited('code', () => sizes(params.code, csso(params.code).css)));

export const html = pureHandler<Params['tools/minify#html']>(async ({ params }) => {
  try {
    const out = await nestingLimited('code', () =>
      htmlMinifier(params.code, { collapseWhitespace: true, removeComments: true, minifyCSS: true, minifyJS: true, removeRedundantAttributes: true }),
    );
    return sizes(params.code, out);
  } catch (err) {
    if ((err as { status?: number }).status) throw err;
    throw invalidParameter('code', `could not be parsed as HTML (${(err as Error).message})`);
  }
});
