import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';

/**
 * Every doc a reader follows must exist: in README.md, docs/ and deploy/README.md, each
 * relative link (`[text](path#section)`) must name a file or folder of the checkout, and its
 * `#section` a heading of that page as GitHub anchors it; each repository path written as
 * inline code (`engine/platform/http/ssrf-guard.ts`, `test/jobs/`) must exist, so a file moved or
 * removed is caught in the page that names it. Paths git ignores are generated
 * (`build/registry.json`, `clients/typescript/schema.d.ts`) and need not exist.
 */

/** The Markdown files whose links are checked, relative to the root. */
export function checkedPages(root: string): string[] {
  const docs = (dir: string): string[] =>
    fs.existsSync(path.join(root, dir))
      ? fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
          const rel = path.posix.join(dir, e.name);
          return e.isDirectory() ? docs(rel) : e.name.endsWith('.md') ? [rel] : [];
        })
      : [];
  return ['README.md', 'deploy/README.md', ...docs('docs')].filter((p) => fs.existsSync(path.join(root, p)));
}

/** Top-level folders whose paths, written as inline code, are taken for references to files. */
const REPO_DIRS = ['engine', 'test', 'bench', 'scripts', 'deploy', 'endpoints', 'templates', 'clients', 'docs', '.ci'];
/** A plain path: no placeholders (`<category>`, `*`, `{a,b}`, `$VAR`, `…`), no spaces, no `:line` or arguments. */
const PLAIN_PATH = new RegExp(`^(?:${REPO_DIRS.map((d) => d.replace('.', '\\.')).join('|')})/[\\w./@+-]*$`);

interface Reference {
  page: string;
  line: number;
  target: string;
  kind: 'link' | 'path';
}

/** The links and inline-code paths of one page, with their line numbers. */
export function references(page: string, text: string): Reference[] {
  const out: Reference[] = [];
  const tokens = marked.lexer(text);
  let offset = 0;
  const lineAt = (raw: string) => {
    const at = text.indexOf(raw, offset);
    return at < 0 ? 0 : text.slice(0, at).split('\n').length;
  };
  const visit = (list: Token[] | undefined, line: number) => {
    for (const token of list ?? []) {
      if (token.type === 'link' || token.type === 'image') {
        const href = (token as Tokens.Link).href;
        if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) out.push({ page, line, target: href, kind: 'link' });
      } else if (token.type === 'codespan') {
        const span = (token as Tokens.Codespan).text;
        if (PLAIN_PATH.test(span)) out.push({ page, line, target: span, kind: 'path' });
      }
      const nested = token as Token & { tokens?: Token[]; items?: Token[]; rows?: Tokens.TableCell[][]; header?: Tokens.TableCell[] };
      visit(nested.tokens, line);
      visit(nested.items, line);
      for (const row of [nested.header ?? [], ...(nested.rows ?? [])]) for (const c of row) visit(c.tokens, line);
    }
  };
  for (const block of tokens) {
    const line = lineAt(block.raw);
    if (line) offset = text.indexOf(block.raw, offset);
    visit([block], line || 1);
  }
  return out;
}

/** GitHub's anchors of a page's headings (the same slug for a repeated heading gets -1, -2, …). */
export function anchors(text: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  for (const token of marked.lexer(text)) if (token.type === 'heading') out.add(slugger.slug((token as Tokens.Heading).text.replace(/`/g, '')));
  for (const match of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) out.add(match[1]);
  return out;
}

/** Which of these checkout-relative paths git ignores (generated files). */
export function ignored(root: string, paths: string[]): Set<string> {
  if (!paths.length) return new Set();
  try {
    const out = execFileSync('git', ['check-ignore', '--no-index', '--stdin'], { cwd: root, input: paths.join('\n'), encoding: 'utf8' });
    return new Set(out.split('\n').filter(Boolean));
  } catch (err) {
    // exit status 1: none of them is ignored
    if ((err as { status?: number }).status === 1) return new Set();
    throw new Error(`docs: git check-ignore failed in ${root} (the check runs in a git checkout): ${(err as Error).message}`);
  }
}

/** `page:line: problem` for each link or path that leads nowhere. */
export function brokenLinks(root: string, pages = checkedPages(root)): string[] {
  const problems: string[] = [];
  const texts = new Map(pages.map((p) => [p, fs.readFileSync(path.join(root, p), 'utf8')]));
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsFor = (page: string) => {
    if (!anchorsOf.has(page)) anchorsOf.set(page, anchors(texts.get(page) ?? fs.readFileSync(path.join(root, page), 'utf8')));
    return anchorsOf.get(page)!;
  };
  const pending: { ref: Reference; file: string }[] = [];
  for (const [page, text] of texts) {
    for (const ref of references(page, text)) {
      const [target, fragment] = ref.target.split('#') as [string, string | undefined];
      const file =
        ref.kind === 'path' ? path.posix.normalize(target) : target ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(target))) : page;
      if (file.startsWith('..')) {
        problems.push(`${page}:${ref.line}: ${ref.target} leads outside the checkout`);
        continue;
      }
      if (!fs.existsSync(path.join(root, file))) {
        pending.push({ ref, file });
        continue;
      }
      if (fragment && file.endsWith('.md') && !anchorsFor(file).has(decodeURIComponent(fragment)))
        problems.push(`${page}:${ref.line}: ${ref.target}: ${file} has no heading with the anchor #${fragment}`);
    }
  }
  const generated = ignored(
    root,
    pending.map((p) => p.file.replace(/\/$/, '')),
  );
  for (const { ref, file } of pending)
    if (!generated.has(file.replace(/\/$/, '')))
      problems.push(`${ref.page}:${ref.line}: ${ref.target}: no such ${ref.kind === 'path' ? 'path' : 'file'} (${file})`);
  return problems;
}
