// The one place json-schema-to-typescript is configured. Plain JavaScript: it runs on the compiler thread
// (emit/typescript-worker.js), which loads it while the main thread reads the spec, and compiles the types there
// while the main thread goes on with the other artifacts. Each named type is compiled on its own: references between
// types are already names (`tsType`), so the compiler never invents a name, and the output is checked to declare
// exactly the type asked for.
import { createRequire } from 'node:module';

const { compile } = createRequire(import.meta.url)('json-schema-to-typescript');

const OPTIONS = {
  bannerComment: '',
  // The TypeScript printer lays the declarations out afterwards (emit/typescript-worker.js); prettier here would cost seconds.
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

const DECLARATION = /^export (?:interface|type|declare enum|enum|const enum) ([A-Za-z_$][\w$]*)/gm;

/** TypeScript declarations for the named types (`{ name, schema }`), in the given order, unformatted. */
export async function compileTypes(types) {
  // One at a time: the compiler works on one thread either way, and types compiled all at once each hold their
  // dereferenced copy of the schema until the last is done (400 MB for 20,000 types).
  const outputs = [];
  for (const { name, schema } of types) outputs.push(await compileOne(name, schema));
  return outputs.join('\n\n');
}

async function compileOne(name, schema) {
  let output;
  try {
    // The schema is this thread's own copy (messages between threads are copied), so the compiler may keep it.
    output = await compile(schema, name, OPTIONS);
  } catch (error) {
    throw new Error(`json-schema-to-typescript could not compile the type ${name}: ${error.message}`);
  }
  const declared = [...output.matchAll(DECLARATION)];
  if (declared.length !== 1) {
    throw new Error(
      `json-schema-to-typescript declared ${declared.map((m) => m[1]).join(', ') || 'nothing'} for the type ${name}; expected exactly one declaration`,
    );
  }
  // The compiler spells the top-level name its own way (`uint64` -> `Uint64`); the name decided in model/names.ts wins.
  const [match] = declared;
  const at = match.index + match[0].length - match[1].length;
  return (output.slice(0, at) + name + output.slice(at + match[1].length)).trim();
}
