/**
 * json-schema-to-typescript, configured in json-schema-to-typescript.js, runs on the compiler thread: loading it and
 * compiling a spec's worth of types there leaves this thread free for the other generators.
 */
import { runOnCompilerThread } from '../emit/typescript.ts';
import { hidePrototypeNames } from './prototype-names.ts';
import type { NamedType } from './schemas.ts';

/** The declarations printed in the project's style (see printTypeScript), compiled and printed in one job. */
export async function compileAndPrintTypes(types: NamedType[], fileName: string): Promise<string> {
  const hidden = hidePrototypeNames(types);
  return hidden.restore(await runOnCompilerThread<string>('types', { types: hidden.types, fileName }));
}
