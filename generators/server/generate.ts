/**
 * `generated/server/`: the `@avalanche-openrpc/server` package. Per endpoint a typed handlers interface, the method
 * table (wire names, decoding shapes, validators compiled here) and a factory that puts handlers behind the RPC
 * layer; the runtime (templates/server/runtime-*.ts.hbs) reproduces the node's RPC layer. TypeScript sources are
 * shipped in `src/`, with ESM JavaScript and declarations emitted in memory into `dist/`, as for the client.
 */
import type { ArtifactContext } from '../artifacts.ts';
import { type GeneratedFile, jsonFile, textFile } from '../emit/files.ts';
import { type TypeScriptSource, emitJavaScript } from '../emit/typescript.ts';
import type { SpecModel } from '../model/types.ts';
import { publishedDocument } from '../openrpc/generate.ts';
import { renderTypes } from '../types/index.ts';
import { validatorsModule } from './validators.ts';
import { type ServerPackageView, serverPackageView } from './view.ts';

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

  // Each emitted file carries the header of the source it comes from.
  const headers = new Map(sources.map((file) => [file.path.replace(/^src\/|\.ts$/g, ''), file.contents.slice(0, file.contents.indexOf('\n'))]));
  const dist = await emitJavaScript(sources, (path) => headers.get(path.replace(/^dist\/|\.d\.ts$|\.js$/g, ''))!);
  const files = [
    ...sources.map(({ path, contents }) => ({ path, contents })),
    ...dist,
    jsonFile('package.json', packageJson(view)),
    textFile('README.md', templates('README.md')(view)),
  ];
  return files.map((file) => ({ ...file, path: `server/${file.path}` }));
}

function packageJson(view: ServerPackageView): object {
  return {
    '//': view.header,
    name: view.name,
    version: view.version,
    description: view.description,
    ...(view.license ? { license: view.license } : {}),
    type: 'module',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    files: ['dist', 'src', 'README.md'],
    sideEffects: false,
    engines: { node: '>=20' },
  };
}
