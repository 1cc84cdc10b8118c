/**
 * `generated/server/`: the `@avalanche-openrpc/server` package. Per endpoint a typed handlers interface, the method
 * table (wire names, decoding shapes, validators compiled here) and a factory that puts handlers behind the RPC
 * layer; the runtime (templates/server/runtime-*.ts.hbs) reproduces the node's RPC layer. TypeScript sources are
 * shipped in `src/`, with ESM JavaScript and declarations emitted in memory into `dist/`, as for the client.
 */
import type { ArtifactContext } from '../artifacts.ts';
import { type GeneratedFile, jsonFile, textFile } from '../emit/files.ts';
import { packageJson } from '../emit/package.ts';
import { type TypeScriptSource, emitJavaScript } from '../emit/typescript.ts';
import type { SpecModel } from '../model/types.ts';
import { publishedDocument } from '../openrpc/generate.ts';
import { renderTypes } from '../types/index.ts';
import { validatorsModule } from './validators.ts';
import { serverPackageView } from './view.ts';

/** The runtime modules, each rendered from templates/server/runtime-<name>.ts.hbs into src/runtime/<name>.ts. */
export const RUNTIME_MODULES = ['ajv', 'encode', 'endpoint', 'formats', 'http', 'json', 'params', 'request', 'rpc', 'standard', 'text'];

export async function generateServer(model: SpecModel, { templates }: ArtifactContext): Promise<GeneratedFile[]> {
  const view = serverPackageView(model);
  const sources: TypeScriptSource[] = [];
  const add = (path: string, template: string, data: object) => sources.push(textFile(path, templates(template)(data)));

  for (const name of RUNTIME_MODULES) add(`src/runtime/${name}.ts`, `runtime-${name}.ts`, { header: view.header });
  sources.push({ ...textFile('src/types.ts', templates('types.ts')({ header: view.header, declarations: (await renderTypes(model)).source })), typesOnly: true });
  model.endpoints.forEach((endpoint, i) => {
    const endpointView = view.endpoints[i]!;
    add(`src/${endpoint.name}.ts`, 'endpoint.ts', endpointView);
    add(`src/documents/${endpoint.name}.ts`, 'document.ts', {
      header: endpointView.header,
      title: endpoint.title,
      documentName: endpointView.documentName,
      json: JSON.stringify(publishedDocument(endpoint), null, 2),
    });
    add(`src/validators/${endpoint.name}.ts`, 'validators.ts', { header: endpointView.header, code: validatorsModule(model, endpoint) });
  });
  add('src/index.ts', 'index.ts', view);

  const dist = await emitJavaScript(sources);
  const files = [
    ...sources.map(({ path, contents }) => ({ path, contents })),
    ...dist,
    jsonFile('package.json', packageJson(view)),
    textFile('README.md', templates('README.md')(view)),
  ];
  return files.map((file) => ({ ...file, path: `server/${file.path}` }));
}
