/**
 * The client package, `client/` in the output: TypeScript sources (`src/`), the ESM JavaScript and declarations
 * compiled from them (`dist/`), `package.json` and a README. One class per endpoint, one method per RPC method.
 */
import type { ArtifactContext } from '../artifacts.ts';
import { type GeneratedFile, jsonFile, textFile } from '../emit/files.ts';
import { packageJson } from '../emit/package.ts';
import { runtimeFiles } from '../emit/runtime.ts';
import { emitJavaScript, typesOnlySource } from '../emit/javascript.ts';
import { TYPES_MODULE } from '../model/names.ts';
import type { SpecModel } from '../model/types.ts';
import { renderTypes } from '../types/index.ts';
import { packageView } from './view.ts';

export async function generateClient(model: SpecModel, { templates, out }: ArtifactContext): Promise<GeneratedFile[]> {
  const view = packageView(model, out);
  const code = [
    ...runtimeFiles('client', 'src', view.header),
    textFile('src/index.ts', templates('index.ts')(view)),
    ...view.endpoints.map((endpoint) => textFile(`src/${endpoint.module}.ts`, templates('endpoint.ts')(endpoint))),
  ];
  // oxfmt lays the compiled code out (natively, asynchronously) while the schemas become types here.
  const [codeDist, { source: declarations }] = await Promise.all([emitJavaScript(code), renderTypes(model)]);
  const typesFile = textFile(`src/${TYPES_MODULE}.ts`, templates(`${TYPES_MODULE}.ts`)({ ...view, declarations }));
  const types = typesOnlySource(typesFile.path, typesFile.contents);
  const dist = [...codeDist, ...(await emitJavaScript([types]))];
  const sources = [...code, types].map(({ path, contents }) => ({ path, contents }));
  const files = [
    ...sources,
    ...dist,
    jsonFile('package.json', packageJson(view)),
    textFile('README.md', templates('README.md')(view)),
  ];
  return files.map((file) => ({ ...file, path: `client/${file.path}` }));
}
