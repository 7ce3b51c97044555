import { minify as terser } from 'terser';
import { minify as csso } from 'csso';
import { minify as htmlMinifier } from 'html-minifier-terser';
import jsBeautify from 'js-beautify';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

/** Minifiers (terser, csso, html-minifier-terser) and beautifiers (js-beautify) of `code`. */

const sizes = (code: string, output: string) => ({
  result: output,
  originalSize: Buffer.byteLength(code),
  minifiedSize: Buffer.byteLength(output),
});

export const minifyJs: Operation = async ({ params }) => {
  try {
    const out = await terser(params.code, { compress: true, mangle: true });
    return sizes(params.code, out.code ?? '');
  } catch (err) {
    throw invalidParameter('code', `is not valid JavaScript (${(err as Error).message})`);
  }
};

export const minifyCss: Operation = ({ params }) => sizes(params.code, csso(params.code).css);

export const minifyHtml: Operation = async ({ params }) => {
  try {
    const out = await htmlMinifier(params.code, {
      collapseWhitespace: true,
      removeComments: true,
      minifyCSS: true,
      minifyJS: true,
      removeRedundantAttributes: true,
    });
    return sizes(params.code, out);
  } catch (err) {
    throw invalidParameter('code', `could not be parsed as HTML (${(err as Error).message})`);
  }
};

const BEAUTIFIERS = { js: jsBeautify.js, css: jsBeautify.css, html: jsBeautify.html };

export const beautify: Operation = ({ params, options }) =>
  BEAUTIFIERS[options.language as keyof typeof BEAUTIFIERS](params.code, { indent_size: params.indent, end_with_newline: false });
