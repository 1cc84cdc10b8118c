/**
 * `generated/server/`: the `@avalanche-openrpc/server` package. Per endpoint a typed handlers interface, the method
 * table (wire names, decoding shapes, the schemas its validators compile on first use) and a factory that puts
 * handlers behind the RPC layer; the runtime (runtime/server/, copied as it is) reproduces the node's RPC layer.
 * TypeScript sources are shipped in `src/`, with ESM JavaScript and declarations in `dist/`: compiled in memory, as
 * for the client, except for the embedded documents and the validators' tables, whose templates write all three.
 */
import type { ArtifactContext } from '../artifacts.ts';
import { type GeneratedFile, jsonFile, textFile } from '../emit/files.ts';
import { packageJson } from '../emit/package.ts';
import { runtimeDependencies, runtimeFiles } from '../emit/runtime.ts';
import { type TypeScriptSource, emitJavaScript, typesOnlySource } from '../emit/javascript.ts';
import type { SpecModel } from '../model/types.ts';
import { commentText } from '../shared/escape.ts';
import { jsonAsJavaScript } from '../shared/lines.ts';
import { publishedDocument } from '../shared/published.ts';
import { renderTypes } from '../types/index.ts';
import { validatorModules } from './validators.ts';
import { serverPackageView } from './view.ts';

export async function generateServer(model: SpecModel, { templates, out }: ArtifactContext): Promise<GeneratedFile[]> {
  const view = serverPackageView(model, out);
  const source = (path: string, template: string, data: object) => textFile(path, templates(template)(data));
  const code: TypeScriptSource[] = [
    ...runtimeFiles('server', 'src/runtime', view.header),
    ...model.endpoints.map((endpoint, i) => source(`src/${endpoint.name}.ts`, 'endpoint.ts', view.endpoints[i]!)),
    source('src/index.ts', 'index.ts', view),
  ];
  // Documents and validators are JavaScript by nature: their templates write the JavaScript and declarations too.
  const shipped = (path: string, template: string, data: object): TypeScriptSource => ({
    ...source(path, `${template}.ts`, data),
    output: { js: templates(`${template}.js`)(data), dts: templates(`${template}.d.ts`)(data) },
  });
  // oxfmt lays the compiled code out (natively, asynchronously) while the schemas become types here.
  const compiling = Promise.all([emitJavaScript(code), renderTypes(model)]);
  const validators = validatorModules(model);
  const data: TypeScriptSource[] = model.endpoints.flatMap((endpoint, i) => {
    const { header, documentName } = view.endpoints[i]!;
    const document = {
      header,
      titleComment: commentText(endpoint.title),
      documentName,
      // Laid out from the column the .ts template's `export const <name>: OpenrpcDocument = ` leaves it at.
      json: jsonAsJavaScript(
        publishedDocument(endpoint),
        '',
        `export const ${documentName}: OpenrpcDocument = `.length,
      ),
    };
    return [
      shipped(`src/documents/${endpoint.name}.ts`, 'document', document),
      shipped(`src/validators/${endpoint.name}.ts`, 'validators', { header, ...validators.get(endpoint.name)! }),
    ];
  });
  const [codeOutput, { source: declarations }] = await compiling;
  const typesFile = source('src/types.ts', 'types.ts', { header: view.header, declarations });
  const types = typesOnlySource(typesFile.path, typesFile.contents);
  const sources = [...code, types, ...data];
  const dist = [...codeOutput, ...(await emitJavaScript([types, ...data]))];
  const dependencies = runtimeDependencies('server');
  const files = [
    ...sources.map(({ path, contents }) => ({ path, contents })),
    ...dist,
    jsonFile('package.json', packageJson(view, dependencies)),
    textFile('README.md', templates('README.md')({ ...view, dependencies: Object.keys(dependencies).join(', ') })),
  ];
  return files.map((file) => ({ ...file, path: `server/${file.path}` }));
}
