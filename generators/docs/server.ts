/**
 * A small static file server for the generated docs (`npm run docs` and the browser tests): GET and HEAD only,
 * nothing outside its folder, folders answered by their index.html. Meant for 127.0.0.1, not for the internet.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

export interface StaticServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

export interface StaticServerOptions {
  root: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Where `/` sends the browser when the root has no index.html of its own (`/docs/` when serving generated/). */
  home?: string;
}

function send(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  response.end(`${message}\n`);
}

/**
 * The request's path (still percent-encoded) and the file it names, or undefined when it is malformed or points outside
 * the root.
 */
function resolveRequest(root: string, url: string): { path: string; file: string } | undefined {
  if (!url.startsWith('/')) return undefined;
  let path: string;
  let decoded: string;
  try {
    // Under a fixed origin `//host/x` stays a path on this server; as a URL reference it would name another host.
    path = new URL(`http://localhost${url}`).pathname;
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = resolve(root, `.${decoded}`);
  return file === root || file.startsWith(root + sep) ? { path, file } : undefined;
}

async function handle(
  root: string,
  home: string | undefined,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return send(response, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
  const target = resolveRequest(root, request.url ?? '/');
  if (!target) return send(response, 400, 'Bad Request');
  let file = target.file;
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (!target.path.endsWith('/')) {
      // Relative links inside the folder's index.html only resolve under a URL that ends in a slash. A Location
      // starting with `//` would send the browser to another host, so leading slashes collapse to one.
      return send(response, 301, 'Moved Permanently', { location: `${target.path.replace(/^\/+/, '/')}/` });
    }
    file = join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
    if (!info && home && target.path === '/') return send(response, 302, 'Found', { location: home });
  }
  if (!info?.isFile()) return send(response, 404, 'Not Found');
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': String(info.size),
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  if (request.method === 'HEAD') return void response.end();
  createReadStream(file)
    .on('error', () => response.destroy())
    .pipe(response);
}

export async function startStaticServer({
  root,
  host = '127.0.0.1',
  port = 0,
  home,
}: StaticServerOptions): Promise<StaticServer> {
  const folder = resolve(root);
  const server = createServer((request, response) => {
    handle(folder, home, request, response).catch(() => {
      if (!response.headersSent) send(response, 500, 'Internal Server Error');
      else response.destroy();
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
