/**
 * What the browser tests share: a fresh Vite build of apps/web, Debian's Chromium
 * (/usr/bin/chromium) driven by playwright-core (no browser download), browser contexts that
 * play as a given player, and the Content-Security-Policy reports of every page, which each
 * test file checks after each test.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');
const CHROMIUM = '/usr/bin/chromium';

/** what the pages reported: CSP violations, CSP console messages, documents served without a CSP */
export interface CspReports {
  violations: string[];
  console: string[];
  unprotected: string[];
}

export interface Chromium {
  readonly browser: Browser;
  readonly csp: CspReports;
  /** A browser context that plays as `who`, a guest or (`account: true`) a logged-in account: the client keeps its token in localStorage. */
  contextAs(
    who: { id: string; name: string; token: string; account?: boolean } | null,
    width?: number,
    hasTouch?: boolean,
  ): Promise<Page>;
  /** the reports since the last call, which are forgotten */
  takeReports(): CspReports;
  close(): Promise<void>;
}

/** Builds the web client into a folder of its own; the caller removes it. */
export async function buildWebClient(): Promise<string> {
  const webRoot = mkdtempSync(join(tmpdir(), 'shogi-web-'));
  await build({
    configFile: join(ROOT, 'apps/web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: webRoot, emptyOutDir: true },
  });
  return webRoot;
}

export const removeWebClient = (webRoot: string | undefined): void => {
  if (webRoot) rmSync(webRoot, { recursive: true, force: true });
};

export async function openChromium(): Promise<Chromium> {
  // the browser is Debian's, never a download: say how to get it rather than fail obscurely
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
  const contexts: BrowserContext[] = [];
  const csp: CspReports = { violations: [], console: [], unprotected: [] };
  return {
    browser,
    csp,
    async contextAs(who, width = 1100, hasTouch = false) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, hasTouch });
      contexts.push(context);
      if (who) await context.addInitScript((v) => localStorage.setItem('shogi.identity', v), JSON.stringify(who));
      await watchPolicy(context, csp);
      const page = await context.newPage();
      page.on('pageerror', (err) => {
        throw err;
      });
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) csp.console.push(message.text());
      });
      page.on('response', (response) => {
        if (response.request().isNavigationRequest() && !response.headers()['content-security-policy'])
          csp.unprotected.push(response.url());
      });
      return page;
    },
    takeReports() {
      const seen = { ...csp };
      csp.violations = [];
      csp.console = [];
      csp.unprotected = [];
      return seen;
    },
    async close() {
      // on a loaded machine a close can stall now and then: bounded, so the run still ends (and says which)
      await bounded('browser contexts', Promise.all(contexts.map((c) => c.close())), 10_000);
      await bounded('browser', browser.close(), 10_000);
    },
  };
}

/** Every page of the context reports what the Content-Security-Policy blocked, across navigations. */
async function watchPolicy(context: BrowserContext, csp: CspReports): Promise<void> {
  await context.exposeBinding('reportCspViolation', (_source, what: string) => {
    csp.violations.push(what);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportCspViolation(what: string): void }).reportCspViolation;
      report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.documentURI} (${e.sample})`);
    });
  });
}

/** Waits for `closing`, at most `ms`; says which close stalled. */
export async function bounded(what: string, closing: Promise<unknown> | undefined, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((done) => {
    timer = setTimeout(() => {
      console.warn(`e2e: ${what} did not close within ${ms} ms`);
      done();
    }, ms);
  });
  await Promise.race([closing?.catch(() => {}), late]);
  clearTimeout(timer);
}
