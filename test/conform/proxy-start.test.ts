/**
 * What a new user of `npm run proxy` meets first: its --help table, a "listening" line that comes before the spec's
 * loading (which it announces, and ends with a line of its own), and WebSocket connections relayed to the node's ws
 * path rather than answered with the upstream's plain 404.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ValidatingProxy, startProxy } from '../../conform/proxy.ts';
import { loadSpecModel } from '../../conform/spec.ts';
import { SpecValidator } from '../../conform/validate.ts';
import { type RunningMockNode, startMockNode } from '../../mock/node.ts';
import { runCli, startCli } from '../support/cli.ts';
import { callRpc, listen, send } from '../support/rpc.ts';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('npm run proxy -- --help', () => {
  it('starts every flag description at one column', async () => {
    const { code, stdout } = await runCli('conform/proxy-cli.ts', ['--help']);
    expect(code).toBe(0);
    const flagLines = stdout.split('\n').filter((line) => /^ {2}--/.test(line));
    expect(flagLines.length).toBeGreaterThanOrEqual(7);
    const columns = flagLines.map((line) => /^ {2}--\S+(?: <[^>]+>)? {2,}/.exec(line)?.[0].length);
    expect(new Set(columns).size, flagLines.join('\n')).toBe(1);
    // Continuation lines line up with the descriptions too.
    const more = stdout.split('\n').filter((line) => /^ {4,}\S/.test(line));
    for (const line of more) expect(line.length - line.trimStart().length, line).toBe(columns[0]);
  });
});

describe('npm run proxy start-up', () => {
  it('listens before it loads the spec, says so, and checks calls that came while it loaded', async () => {
    const node = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: number };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', result: { height: 42 }, id }));
      });
    });
    closers.push(node.close);
    const cli = startCli('conform/proxy-cli.ts', ['--upstream', node.url, '--port', '0']);
    closers.push(() => cli.stop());
    const [, url] = await cli.stdout.until(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    // Sent at once: forwarded whether or not the spec is loaded yet, and checked once it is.
    const answer = await send(url!, {
      path: '/ext/bc/P',
      body: '{"jsonrpc":"2.0","id":1,"method":"platform.getHeight"}',
    });
    expect(answer.status).toBe(200);
    await cli.stdout.until(/spec loaded/);
    await cli.stdout.until(/violation #1 platform\.getHeight response \/result\/height/);
    const lines = cli.stdout.text.split('\n');
    const listening = lines.findIndex((line) => line.includes('listening on'));
    const loading = lines.findIndex((line) => /loading the spec/.test(line));
    const loaded = lines.findIndex((line) => /spec loaded: \d+ methods/.test(line));
    expect(listening).toBe(0);
    expect(loading).toBeGreaterThan(listening);
    expect(loaded).toBeGreaterThan(loading);
  });

  it('refuses a --spec that cannot be loaded before it listens, exit code 2, naming the problem', async () => {
    const { code, stdout, stderr } = await runCli('conform/proxy-cli.ts', [
      '--upstream',
      'http://127.0.0.1:9',
      '--port',
      '0',
      '--spec',
      '/nonexistent/spec.json',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^proxy: [\s\S]*nonexistent/);
    // A spec of the user's own is loaded before the proxy listens: it never claims to be a proxy for it.
    expect(stdout).toMatch(/^loading the spec from \/nonexistent\/spec\.json/);
    expect(stdout).not.toMatch(/listening|spec loaded/);
  });
});

describe('WebSocket through the proxy', () => {
  let node: RunningMockNode;
  let proxy: ValidatingProxy;
  const start = async () => {
    node = await startMockNode({ port: 0, host: '127.0.0.1' });
    closers.push(() => node.close());
    proxy = await startProxy({ upstream: node.url, validator: new SpecValidator(loadSpecModel()) });
    closers.push(() => proxy.close());
  };

  it("relays an upgrade to the node's ws path, both ways", async () => {
    await start();
    const direct = await callRpc(`${node.url}/ext/bc/C/rpc`, 'eth_chainId', []);
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/ext/bc/C/ws`);
    closers.push(async () => socket.close());
    const message = new Promise<string>((resolve) => {
      socket.onmessage = (event) => resolve(String(event.data));
    });
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('the WebSocket failed to open'));
    });
    socket.send('{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}');
    expect(JSON.parse(await message)).toEqual({ jsonrpc: '2.0', id: 7, result: direct.result });
    expect(proxy.stats.websockets).toBe(1);
  });

  it('passes on what the upstream answers an upgrade it does not take', async () => {
    await start();
    const upgrade = {
      method: 'GET',
      contentType: null,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      },
    };
    const direct = await send(`${node.url}/ext/bc/X`, upgrade);
    const proxied = await send(`${proxy.url}/ext/bc/X`, upgrade);
    expect(direct.status).not.toBe(101);
    expect([proxied.status, proxied.text]).toEqual([direct.status, direct.text]);
  });

  it('answers 504 for an upstream silent to an upgrade, and 502 for one refusing it at great length', async () => {
    const upstream = await listen(() => {});
    // Upgraded sockets are the test's own to end: the server no longer tracks them.
    const held = new Set<import('node:stream').Duplex>();
    closers.push(upstream.close, async () => {
      for (const socket of held) socket.destroy();
    });
    upstream.server.on('upgrade', (req, socket) => {
      held.add(socket);
      // /long refuses with an endless body; any other path is never answered.
      if (req.url === '/long') {
        socket.write('HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = `100000\r\n${'x'.repeat(0x100000)}\r\n`;
        const more = () => {
          while (!socket.destroyed && socket.write(chunk));
          if (!socket.destroyed) socket.once('drain', more);
        };
        more();
      }
      socket.on('error', () => {});
    });
    const failures: string[] = [];
    const proxy = await startProxy({
      upstream: upstream.url,
      validator: new SpecValidator(loadSpecModel()),
      timeoutMs: 300,
      onUpstreamError: (message) => failures.push(message),
    });
    closers.push(() => proxy.close());
    const upgrade = {
      method: 'GET',
      contentType: null,
      headers: { connection: 'Upgrade', upgrade: 'websocket' },
    };
    const silent = await send(`${proxy.url}/quiet`, upgrade);
    expect(silent.status).toBe(504);
    const long = await send(`${proxy.url}/long`, upgrade);
    expect(long.status).toBe(502);
    expect(long.text).toMatch(/too large/);
    expect(failures).toHaveLength(1);
  });
});
