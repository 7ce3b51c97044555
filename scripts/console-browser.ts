/**
 * Driving the web console (/admin) in Debian's Chromium through playwright-core: used by
 * the console's browser test and by `npm run console:screenshots`. Every wait is on the
 * page (a heading, a row, a response), never on time.
 */
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../engine/features/tools/browser/chromium.js';

/** Debian's Chromium, or the one CHROMIUM_PATH names, as the engine's browser tools find it. */
export const CHROMIUM = chromiumPath(process.env as Record<string, string>);

export const haveChromium = () => fs.existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** What went wrong on a page: console errors (a CSP violation is one), uncaught errors, and requests to any other origin. */
export interface PageWatch {
  problems: string[];
  elsewhere: string[];
}

/** A page at 1280×800 whose problems are collected; waits are generous, as the machine may be loaded. */
export async function consolePage(browser: Browser, baseUrl: string): Promise<{ page: Page; watch: PageWatch }> {
  // a context of its own (what axe's page audit asks for), closed with its page
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.once('close', () => void context.close());
  page.setDefaultTimeout(120_000);
  const watch: PageWatch = { problems: [], elsewhere: [] };
  const origin = new URL(baseUrl).origin;
  page.on('console', (msg) => msg.type() === 'error' && watch.problems.push(msg.text()));
  page.on('pageerror', (err) => watch.problems.push(err.message));
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) watch.elsewhere.push(url);
  });
  return { page, watch };
}

/** Open /admin, type the token into the sign-in form and wait for the first page (Keys). */
export async function signIn(page: Page, baseUrl: string, token: string): Promise<void> {
  await page.goto(`${baseUrl}/admin`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Keys' }).waitFor();
}

/**
 * The console's pages as its menu names them, each with what shows that its data is in:
 * its table, chart or empty-state line.
 */
export const CONSOLE_PAGES = [
  { id: 'keys', link: 'Keys', ready: 'main table tbody tr, main :text("No keys yet")' },
  { id: 'usage', link: 'Usage', ready: '#usage-by-day, main :text("No requests in this range")' },
  { id: 'jobs', link: 'Jobs', ready: 'main table tbody tr, main :text("No jobs")' },
  { id: 'health', link: 'Health', ready: '#health-table tbody tr' },
  { id: 'endpoints', link: 'Unavailable endpoints', ready: '#unavailable-table tbody tr, main :text("can run on this server")' },
] as const;

/** Follow a menu link and wait for that page's heading. */
export async function openPage(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console pages' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}
