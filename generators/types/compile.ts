/**
 * The one place json-schema-to-typescript is configured. Each named type is compiled on its own: references between
 * types are already names (`tsType`), so the compiler never invents a name, and the output is checked to declare
 * exactly the type asked for.
 */
import type { Options } from 'json-schema-to-typescript';
import type { JsonSchema } from '../model/types.ts';
import type { NamedType } from './schemas.ts';

const OPTIONS: Partial<Options> = {
  bannerComment: '',
  // The TypeScript printer lays the declarations out afterwards (emit/typescript.ts); prettier here would cost seconds.
  format: false,
  // A type the compiler names on its own is declared, so the one-declaration check below sees it.
  declareExternallyReferenced: true,
  // An object schema that says nothing about other keys gets none: params are typed, not open-ended.
  additionalProperties: false,
  unknownAny: true,
  strictIndexSignatures: false,
  enableConstEnums: false,
  // Tuples from minItems/maxItems make lists the node sends hard to use; a list is a list.
  ignoreMinAndMaxItems: true,
  unreachableDefinitions: false,
  $refOptions: { resolve: { file: false, http: false } },
};

type Compile = (schema: object, name: string, options: Partial<Options>) => Promise<string>;
let compiler: Promise<Compile> | undefined;

/** json-schema-to-typescript is CommonJS and slow to load; it is loaded on first use. */
function loadCompiler(): Promise<Compile> {
  compiler ??= import('json-schema-to-typescript').then((module) => module.compile as Compile);
  return compiler;
}

const DECLARATION = /^export (?:interface|type|declare enum|enum|const enum) ([A-Za-z_$][\w$]*)/gm;

/** TypeScript declarations for the named types, in the given order, unformatted. */
export async function compileTypes(types: NamedType[]): Promise<string> {
  const compile = await loadCompiler();
  const outputs = await Promise.all(types.map(({ name, schema }) => compileOne(compile, name, schema)));
  return outputs.join('\n\n');
}

async function compileOne(compile: Compile, name: string, schema: JsonSchema): Promise<string> {
  let output: string;
  try {
    output = await compile(structuredClone(schema), name, OPTIONS);
  } catch (error) {
    throw new Error(`json-schema-to-typescript could not compile the type ${name}: ${(error as Error).message}`);
  }
  const declared = [...output.matchAll(DECLARATION)];
  if (declared.length !== 1) {
    throw new Error(`json-schema-to-typescript declared ${declared.map((m) => m[1]).join(', ') || 'nothing'} for the type ${name}; expected exactly one declaration`);
  }
  // The compiler spells the top-level name its own way (`uint64` -> `Uint64`); the name decided in model/names.ts wins.
  const [match] = declared as [RegExpExecArray];
  const at = match.index + match[0].length - match[1]!.length;
  return (output.slice(0, at) + name + output.slice(at + match[1]!.length)).trim();
}
