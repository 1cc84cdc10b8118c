/**
 * A server generated from a foreign OpenRPC document, as a user would build one: the generator's server package
 * with its example handler set (the classic mock), on node:http at 127.0.0.1. Tests point conform and the proxy at it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { serverNames } from '../../generators/model/names.ts';
import { listen } from '../support/rpc.ts';

export interface ForeignServer {
  url: string;
  close(): Promise<void>;
}

type Handler = (params: Record<string, unknown>) => unknown;

/**
 * Serves the spec's first endpoint at `/` (a foreign document's server is one JSON-RPC URL). `handlers` replace
 * example handlers by key (the generated handler name, e.g. `listPets`); `methods` limits the methods served.
 */
export async function startForeignServer(
  spec: string,
  options: { handlers?: Record<string, Handler>; methods?: string[] } = {},
): Promise<ForeignServer> {
  const model = loadModel(spec);
  const folder = mkdtempSync(join(tmpdir(), 'foreign-server-'));
  for (const file of await renderArtifacts(model, { artifacts: ['server'] })) {
    mkdirSync(dirname(join(folder, file.path)), { recursive: true });
    writeFileSync(join(folder, file.path), file.contents);
  }
  const server = await import(pathToFileURL(join(folder, 'server/dist/index.js')).href);
  const endpoint = model.endpoints[0]!;
  const names = serverNames(endpoint.typeName);
  const handlers = { ...server.exampleHandlers(server[names.document], server[names.methods]), ...options.handlers };
  const app = server[names.create](handlers, options.methods ? { methods: options.methods } : {});
  const http = await listen(app.node);
  return {
    url: `${http.url}/`,
    close: async () => {
      await http.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
