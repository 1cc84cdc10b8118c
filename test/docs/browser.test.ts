/**
 * The generated site in headless Chromium, served from 127.0.0.1 and opened from disk: the landing page, search,
 * permalinks, keyboard use, phone layout, the "try it" form, and the hostile fixture running nothing. Every page
 * must log no error and fetch nothing but its own files. Screenshots go to test-artifacts/ (not committed).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, startStaticServer } from '../../generators/docs/server.ts';
import { newestSpecVersion } from '../../generators/model/versions.ts';
import { listen } from '../support/rpc.ts';
import { type Browser, findChromium, missingChromiumBanner, launchChromium } from './chromium.ts';
import { type BuiltSite, ROOT, SPECS, buildSite } from './site.ts';

const executable = findChromium();
const ARTIFACTS = join(ROOT, 'test-artifacts');

if (!executable) {
  console.warn(missingChromiumBanner(process.env.CI === 'true'));
  if (process.env.CI === 'true') {
    describe('docs in a real browser', () => {
      it('needs Chromium under CI=true', () => {
        throw new Error(
          'no Chromium found: install it (apt-get install chromium) or set CHROMIUM; CI requires the browser tests',
        );
      });
    });
  }
}

interface Visit {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

describe.skipIf(!executable)('docs in headless Chromium', () => {
  let browser: Browser;
  let real: BuiltSite;
  let hostile: BuiltSite;
  let realServer: StaticServer;
  let hostileServer: StaticServer;
  const visits: Visit[] = [];

  beforeAll(async () => {
    [real, hostile] = [await buildSite(SPECS.real), await buildSite(SPECS.hostile)];
    realServer = await startStaticServer({ root: real.dir });
    hostileServer = await startStaticServer({ root: hostile.dir });
    browser = await launchChromium(executable!);
    mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterEach(async () => {
    await Promise.all(visits.splice(0).map((entry) => entry.page.close()));
  });

  afterAll(async () => {
    await browser?.close();
    await realServer?.close();
    await hostileServer?.close();
  });

  async function visit(url: string, viewport = { width: 1280, height: 900 }): Promise<Visit> {
    const page = await browser.context.newPage();
    await page.setViewportSize(viewport);
    const entry: Visit = { page, errors: [], requests: [], dialogs: [] };
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        entry.errors.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => entry.errors.push(`pageerror: ${error.message}`));
    page.on('request', (request) => entry.requests.push(request.url()));
    page.on('dialog', (dialog) => {
      entry.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url, { waitUntil: 'load' });
    visits.push(entry);
    return entry;
  }

  /** No console errors and no request beyond the site's own files. */
  function expectClean(entry: Visit, siteRoot: string) {
    expect(entry.errors).toEqual([]);
    expect(entry.requests.filter((url) => !url.startsWith(siteRoot))).toEqual([]);
    expect(entry.dialogs).toEqual([]);
  }

  const methodCount = () => real.model.endpoints.reduce((sum, endpoint) => sum + endpoint.methods.length, 0);
  const visibleMethods = (page: Page, scope: string) =>
    page.$$eval(`${scope} [data-method]`, (items) =>
      items
        .filter((item) => (item as HTMLElement).offsetParent !== null)
        .map((item) => item.getAttribute('data-method')),
    );

  it('lists every endpoint with its method count and every method on the landing page', async () => {
    const entry = await visit(realServer.url);
    const { page } = entry;
    const cards = await page.$$eval('[data-endpoint]', (items) =>
      items.map((item) => [item.getAttribute('data-endpoint'), item.querySelector('.count')?.textContent]),
    );
    expect(cards).toEqual(
      real.model.endpoints.map((endpoint) => [
        endpoint.name,
        `${endpoint.methods.length} method${endpoint.methods.length === 1 ? '' : 's'}`,
      ]),
    );
    expect(await visibleMethods(page, 'main')).toHaveLength(methodCount());
    expect(await visibleMethods(page, 'nav')).toHaveLength(methodCount());
    expect(await page.textContent('#search-status')).toBe(`${methodCount()} methods`);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-landing.png'), fullPage: false });
    expectClean(entry, realServer.url);
  });

  it('narrows the list as you type, by name, summary or param name, and opens the first match on Enter', async () => {
    const entry = await visit(realServer.url);
    const { page } = entry;
    const all = real.model.endpoints.flatMap((e) => e.methods);
    const expected = (query: string) =>
      all
        .filter((m) =>
          query
            .split(' ')
            .every((word) =>
              [m.name, m.summary, ...m.params.map((p) => p.name)].join(' ').toLowerCase().includes(word),
            ),
        )
        .map((m) => m.name);

    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    await page.keyboard.type('getheight');
    expect(await visibleMethods(page, 'nav')).toEqual(expected('getheight'));
    expect(await visibleMethods(page, 'main')).toEqual(expected('getheight'));
    expect(expected('getheight').length).toBeGreaterThan(1);
    expect(await page.textContent('#search-status')).toBe(
      `${expected('getheight').length} of ${methodCount()} methods match`,
    );

    for (const query of ['subnetid', 'utxo address', 'validator']) {
      await page.fill('#search', query);
      expect(await visibleMethods(page, 'main')).toEqual(expected(query));
    }
    expect(expected('subnetid').length).toBeGreaterThan(0);

    await page.fill('#search', 'no such method anywhere');
    expect(await visibleMethods(page, 'main')).toEqual([]);
    expect(await page.isVisible('[data-no-match]')).toBe(true);

    await page.keyboard.press('Escape');
    expect(await visibleMethods(page, 'main')).toHaveLength(methodCount());

    await page.fill('#search', 'getheight');
    await Promise.all([page.waitForURL(/#/), page.keyboard.press('Enter')]);
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#${expected('getheight')[0]}`);
    expectClean(entry, realServer.url);
  });

  it('scrolls to the method when its link is followed, and the permalink is the address', async () => {
    const entry = await visit(realServer.url);
    const { page } = entry;
    await Promise.all([
      page.waitForURL(/p-chain\.html#platform\.getCurrentValidators$/),
      page.click('main a[href="p-chain.html#platform.getCurrentValidators"]'),
    ]);
    const position = await page.evaluate(() => {
      const section = document.getElementById('platform.getCurrentValidators')!;
      return {
        top: section.getBoundingClientRect().top,
        scrolled: window.scrollY,
        targeted: section.matches(':target'),
      };
    });
    expect(position.targeted).toBe(true);
    expect(position.scrolled).toBeGreaterThan(0);
    expect(Math.abs(position.top)).toBeLessThan(40);
    expect(await page.getAttribute('#platform\\.getCurrentValidators .permalink', 'href')).toBe(
      '#platform.getCurrentValidators',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'docs-method.png'), fullPage: false });
    expectClean(entry, realServer.url);
  });

  it('works straight from disk (file://), fetching only its own files', async () => {
    const root = pathToFileURL(real.dir).href;
    const entry = await visit(`${root}/index.html`);
    const { page } = entry;
    expect(await page.$$eval('[data-endpoint]', (items) => items.length)).toBe(real.model.endpoints.length);
    expect(await visibleMethods(page, 'main')).toHaveLength(methodCount());
    await page.fill('#search', 'issuetx');
    expect(await visibleMethods(page, 'nav')).toEqual([
      'avax.issueTx',
      'platform.issueTx',
      'avm.issueTx',
      'wallet.issueTx',
    ]);
    await Promise.all([
      page.waitForURL(/x-wallet\.html#wallet\.issueTx$/),
      page.click('nav a[href="x-wallet.html#wallet.issueTx"]'),
    ]);
    expect(await page.evaluate(() => document.getElementById('wallet.issueTx')!.matches(':target'))).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');
    expectClean(entry, root);
  });

  it('can be used from the keyboard: skip link first, then the search box', async () => {
    const entry = await visit(`${realServer.url}p-chain.html`);
    const { page } = entry;
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    const landmarks = await page.evaluate(() =>
      ['header', 'nav', 'main', 'footer'].map((tag) => document.querySelectorAll(tag).length),
    );
    expect(landmarks.every((count) => count > 0)).toBe(true);
    expect(await page.$$eval('h1', (items) => items.length)).toBe(1);
    expectClean(entry, realServer.url);
  });

  it('fits a phone screen on every page, with the method list folded until you search', async () => {
    for (const file of real.files.filter((f) => f.path.endsWith('.html')).map((f) => f.path.slice('docs/'.length))) {
      const entry = await visit(`${realServer.url}${file}`, { width: 360, height: 740 });
      const { page } = entry;
      const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(widths[0], file).toBeLessThanOrEqual(widths[1]!);
      expect(
        await page.evaluate(() => (document.querySelector('[data-nav-toggle]') as HTMLDetailsElement).open),
        file,
      ).toBe(false);
      if (file === 'index.html') {
        await page.screenshot({ path: join(ARTIFACTS, 'docs-landing-phone.png') });
        await page.fill('#search', 'getheight');
        expect(
          await page.evaluate(() => (document.querySelector('[data-nav-toggle]') as HTMLDetailsElement).open),
        ).toBe(true);
      }
      expectClean(entry, realServer.url);
    }
  });

  it('sends an example to the node URL the reader types and shows the answer', async () => {
    const received: string[] = [];
    const node = await listen((request, response) => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' };
      if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(`${request.url} ${body}`);
        response
          .writeHead(200, { ...cors, 'content-type': 'application/json' })
          .end('{"jsonrpc":"2.0","id":1,"result":{"height":"4242"}}');
      });
    });
    try {
      const nodeUrl = node.url;
      const entry = await visit(`${realServer.url}p-chain.html#platform.getHeight`);
      const { page } = entry;
      const form = '#platform\\.getHeight .try-it';
      await page.click(`${form} summary`);
      await page.fill(`${form} input[name="baseUrl"]`, nodeUrl);
      await page.click(`${form} button[type="submit"]`);
      await page.waitForSelector(`${form} [data-try-output] pre`);
      expect(await page.textContent(`${form} [data-try-output]`)).toContain('"height": "4242"');
      expect(received).toHaveLength(1);
      expect(received[0]!.startsWith('/ext/bc/P ')).toBe(true);
      expect(JSON.parse(received[0]!.slice('/ext/bc/P '.length))).toMatchObject({
        jsonrpc: '2.0',
        method: 'platform.getHeight',
      });
      expect(entry.errors).toEqual([]);
      expect(entry.requests.filter((url) => !url.startsWith(realServer.url) && !url.startsWith(nodeUrl))).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it('never echoes the request (a password) when it is not JSON, nor puts it in the URL or storage', async () => {
    const entry = await visit(`${realServer.url}keystore.html#keystore.createUser`);
    const { page } = entry;
    const form = '#keystore\\.createUser .try-it';
    await page.click(`${form} summary`);
    await page.fill(`${form} input[name="baseUrl"]`, 'http://127.0.0.1:9');
    await page.fill(
      `${form} textarea[name="body"]`,
      '{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"a","password": Hunter2Secret}}',
    );
    await page.click(`${form} button[type="submit"]`);
    const output = (await page.textContent(`${form} [data-try-output]`)) ?? '';
    expect(output).toMatch(/^The request is not valid JSON/);
    expect(output).not.toContain('Hunter2');
    expect(page.url()).not.toContain('Hunter2');
    expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toContain('Hunter2');
    expect(entry.requests.join(' ')).not.toContain('Hunter2');
  });

  it('shows the API as of the release chosen in the selector, from the keyboard, remembered across pages', async () => {
    const entry = await visit(`${realServer.url}p-chain.html`);
    const { page } = entry;
    /** For each match: whether the chosen release has it (nothing around it is left out). */
    const kept = (selector: string, on = page) =>
      on.$$eval(selector, (items) => items.map((item) => item.closest('[data-out-of-release]') === null));
    // A type's fields: the validator kinds' are on the types page, which a method's tree links to past its first level.
    const field = (name: string) => `section.type li:has(> .node-head > code.field-name:text-is("${name}"))`;
    const param = (method: string, name: string) => `[id="${method}"] tr:has(> th > code:text-is("${name}"))`;
    expect(await page.isVisible('#release')).toBe(true);
    expect(await kept(param('platform.getStake', 'validatorsOnly'))).toEqual([true]);

    // Keyboard only: the select takes focus and the arrow keys pick the release (newest first after "every release").
    await page.focus('#release');
    await page.keyboard.press('ArrowDown');
    const newest = await page.inputValue('#release');
    // The newest release the spec names: ACP-236's fields, tagged v1.15.0-fuji ahead of v1.15.0, come before the
    // release the spec's documents are of.
    expect(newest).toBe('v1.15.0-fuji');
    expect(newestSpecVersion(real.model)).toBe('v1.14.2');
    expect(await page.textContent('#release-status')).toContain(`As of ${newest}`);
    const types = await visit(`${realServer.url}types.html`);
    expect(await types.page.inputValue('#release')).toBe(newest);
    expect(await kept(field('stakeAmount'), types.page)).not.toContain(true);
    // ACP-236's fields are there as of the pre-release, and not a release earlier.
    expect(await kept(field('validatorAuthority'), types.page)).toContain(true);
    await types.page.selectOption('#release', 'v1.14.2');
    expect(await kept(field('validatorAuthority'), types.page)).not.toContain(true);

    // A link names the release, any release: v1.10.5 has the API of the last one the spec names before it.
    const old = await visit(`${realServer.url}p-chain.html?release=v1.10.5`);
    expect(await old.page.inputValue('#release')).toBe('v1.10.1');
    await page.selectOption('#release', 'v1.10.1');
    // A method the release did not serve is marked and leaves the navigation.
    expect(await page.textContent('[id="platform.getL1Validator"] [data-release-note]')).toBe(
      'Not served by v1.10.1 (served since v1.11.13).',
    );
    expect(await visibleMethods(page, 'nav')).not.toContain('platform.getL1Validator');
    expect(await visibleMethods(page, 'nav')).toContain('platform.getValidatorsAt');
    // Params, fields and result shapes of that release.
    expect(await kept(param('platform.getStake', 'validatorsOnly'))).toEqual([true]);
    await types.page.selectOption('#release', 'v1.10.1');
    expect(await kept(field('stakeAmount'), types.page)).toContain(true);
    expect(await kept('[id="platform.getValidatorsAt"] .result-earlier')).toEqual([true]);
    expect(await kept('[id="platform.getValidatorsAt"] .result:not(.result-earlier)')).toEqual([false]);
    await page.selectOption('#release', 'v1.9.0');
    expect(await kept(param('platform.getStake', 'validatorsOnly'))).toEqual([false]);

    // The choice follows the reader to the next page; a link can name another.
    const next = await visit(`${realServer.url}x-chain.html`);
    expect(await next.page.inputValue('#release')).toBe('v1.9.0');
    const rejected = '[id="avm.getTxStatus"] .enum-value:has(code:text-is(\'"Rejected"\'))';
    expect(
      await next.page.$$eval(rejected, (items) => items.map((i) => i.closest('[data-out-of-release]') === null)),
    ).toEqual([true]);
    const linked = await visit(`${realServer.url}x-chain.html?release=v1.12.2`);
    expect(
      await linked.page.$$eval(rejected, (items) => items.map((i) => i.hasAttribute('data-out-of-release'))),
    ).toEqual([true]);
    await linked.page.selectOption('#release', '');
    expect(await linked.page.$$eval('[data-out-of-release]', (items) => items.length)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-release.png'), fullPage: false });
    for (const visited of [entry, types, old, next, linked]) expectClean(visited, realServer.url);
  });

  it('shows the hostile fixture as text and runs none of it', async () => {
    for (const file of ['index.html', 'hostile.html', 'types.html']) {
      const entry = await visit(`${hostileServer.url}${file}`);
      const { page } = entry;
      await page.$$eval('details', (all) => all.forEach((details) => ((details as HTMLDetailsElement).open = true)));
      await page.fill('#search', 'img');
      await page.waitForTimeout(100);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), file).toBeUndefined();
      expect(await page.$$eval('main img, main script, main [onerror]', (items) => items.length), file).toBe(0);
      expect(await page.textContent('main'), file).toContain("<script>window.__xss='");
      expectClean(entry, hostileServer.url);
    }
    const entry = await visit(`${hostileServer.url}hostile.html#hostile.render`);
    expect(await entry.page.textContent('#hostile\\.render h2')).toContain('hostile.render');
    expect(await entry.page.textContent('#hostile\\.render .summary')).toBe(
      "Summary <script>window.__xss='summary'</script> \"><img src=x onerror=\"window.__xss='summary-img'\"> " +
        '{{summary}}',
    );
    await entry.page.screenshot({ path: join(ARTIFACTS, 'docs-hostile.png'), fullPage: false });
    expectClean(entry, hostileServer.url);
  });
});
