import { marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { convert } from 'html-to-text';
import type { Operation } from './types.js';

/** Markdown and HTML: rendering, sanitising (no script, handlers or javascript: URLs survive) and text extraction. */

const SAFE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'del', 'input'],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    img: ['src', 'alt', 'title', 'width', 'height'],
    input: ['type', 'checked', 'disabled'],
    code: ['class'],
    th: ['align'],
    td: ['align'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
};

export const sanitize = (html: string) => sanitizeHtml(html, SAFE);

export const markdownToHtml: Operation = async ({ params }) => sanitize(await marked.parse(params.markdown, { gfm: true }));

export const sanitizeOperation: Operation = ({ params }) => sanitize(params.html);

export const htmlToText: Operation = ({ params }) => convert(params.html, { wordwrap: params.wordwrap || false });
