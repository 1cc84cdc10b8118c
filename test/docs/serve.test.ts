/** `npm run docs`: the static server serves the site's files and nothing else, and the command prints its URL. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, startStaticServer } from '../../generators/docs/server.ts';
import { type RunningCli, runCli, startCli } from '../support/cli.ts';
import { send } from '../support/rpc.ts';

const site = mkdtempSync(join(tmpdir(), 'docs-serve-'));
mkdirSync(join(site, 'assets'));
mkdirSync(join(site, 'evil.example'));
writeFileSync(join(site, 'index.html'), '<!DOCTYPE html><title>x</title>');
writeFileSync(join(site, 'assets', 'site.css'), 'body{}');
writeFileSync(join(tmpdir(), 'docs-serve-secret.txt'), 'secret');

/** A raw GET (or `method`), so paths reach the server exactly as written (fetch would normalise `..`). */
const get = (url: string, path: string, method = 'GET') => send(url, { path, method, contentType: null });

describe('the docs static server', () => {
  let server: StaticServer;
  beforeAll(async () => {
    server = await startStaticServer({ root: site });
  });
  afterAll(() => server.close());

  it('listens on 127.0.0.1 and serves files with their content types', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const index = await get(server.url, '/');
    expect(index).toMatchObject({ status: 200, text: '<!DOCTYPE html><title>x</title>' });
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get(server.url, '/assets/site.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect(await get(server.url, '/assets/site.css', 'HEAD')).toMatchObject({ status: 200, text: '' });
  });

  it('answers folders by their index.html, after a redirect to the slash form', async () => {
    const redirect = await get(server.url, '/assets?x=1');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/assets/');
    expect((await get(server.url, '/assets/')).status).toBe(404);
  });

  it('redirects only within the site, even when the path reads like another host', async () => {
    for (const [path, location] of [
      ['//evil.example', '/evil.example/'],
      ['///evil.example?x=1', '/evil.example/'],
      ['/\\evil.example', '/evil.example/'],
      ['//assets', '/assets/'],
    ]) {
      const response = await get(server.url, path!);
      expect(response.status, path).toBe(301);
      expect(response.headers.location, path).toBe(location);
    }
    expect((await get(server.url, '//evil.example/other.html')).status).toBe(404);
  });

  it('never serves anything outside its folder', async () => {
    for (const path of [
      '/../docs-serve-secret.txt',
      '/..%2fdocs-serve-secret.txt',
      '/%2e%2e/docs-serve-secret.txt',
      '/assets/..%2f..%2fdocs-serve-secret.txt',
    ]) {
      const response = await get(server.url, path);
      expect(response.text, path).not.toContain('secret');
      expect([400, 404], path).toContain(response.status);
    }
  });

  it('answers malformed and unsupported requests with an HTTP error, and keeps serving', async () => {
    expect((await get(server.url, '/%E0%A4%A')).status).toBe(400);
    expect((await get(server.url, '/x%00y')).status).toBe(400);
    const post = await get(server.url, '/', 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    expect((await get(server.url, '/missing.html')).status).toBe(404);
    expect((await get(server.url, '/')).status).toBe(200);
  });
});

describe('npm run docs', () => {
  const SERVE = 'generators/docs/serve.ts';
  const running: RunningCli[] = [];
  afterAll(() => Promise.all(running.map((cli) => cli.stop())));

  it('prints the URL it serves the site at, on 127.0.0.1 by default', async () => {
    const cli = startCli(SERVE, ['--port', '0', '--dir', site]);
    running.push(cli);
    const [, url] = await cli.stdout.until(/Docs at (http:\/\/127\.0\.0\.1:\d+\/)/);
    expect(url).toBeDefined();
    expect((await get(url!, '/')).status).toBe(200);
    await cli.stop();
  });

  it('explains bad flags and a missing site instead of crashing', async () => {
    const badPort = await runCli(SERVE, ['--port', 'eighty']);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('--port must be a whole number from 0 to 65535');
    const noSite = await runCli(SERVE, ['--dir', join(site, 'nowhere')]);
    expect(noSite.code).toBe(1);
    expect(noSite.stderr).toContain('run `npm run generate` first');
    const taken = await startStaticServer({ root: site });
    const busy = await runCli(SERVE, ['--port', new URL(taken.url).port, '--dir', site]);
    await taken.close();
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('is in use: pass --port');
    const unknown = await runCli(SERVE, ['--bogus']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Usage: npm run docs');
  });
});
