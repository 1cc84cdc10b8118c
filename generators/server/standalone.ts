/**
 * ajv's standalone code (compiled with `code.lines`, one statement per line) made into the server package's validators:
 * its requires pointed at the runtime, its error lists bounded by the runtime's error budget, and its lines indented
 * and kept within the page (layout.ts) so that a reader can follow a validator in an editor or a stack trace.
 */
import type * as ajvHelpers from '../../runtime/server/ajv.ts';
import { layOut } from './layout.ts';

/** ajv's runtime helpers the standalone code may require, and the runtime export standing in for each. */
const RUNTIME_HELPERS: Record<string, keyof typeof ajvHelpers> = {
  'ajv/dist/runtime/ucs2length': 'ucs2length',
  'ajv/dist/runtime/equal': 'equal',
};

export interface BudgetedCode {
  /** JavaScript, for the package's `dist/`. */
  code: string;
  /** The same code as TypeScript, for its `src/`. */
  typedCode: string;
  /** The runtime/server/ajv.ts helpers the code calls through `require` in ajv's output. */
  helpers: string[];
}

/**
 * ajv appends a called validator's errors with concat, copying the list each time: quadratic in the invalid items of
 * an array. Errors are appended in place instead, and past the runtime's error budget (runtime/server/ajv.ts) an
 * error is the shared TOO_MANY, kept once at the end of a list. `errors` still counts every error, and ajv decides
 * validity by that count alone, so what is valid stays valid; errors a branch discards go back to the budget. A
 * recursive schema's validator calls itself through a wrapper (`wrapper0.validate`), hence the dotted name.
 * Each pattern matches whole lines of ajv's `code.lines` output.
 */
const BUDGET_REWRITES: Array<[RegExp, string | ((...groups: string[]) => string)]> = [
  [
    /^vErrors = vErrors === null \? ([\w.]+)\.errors : vErrors\.concat\(\1\.errors\);\nerrors = vErrors\.length;$/gm,
    (_m, fn) =>
      [
        'if(vErrors === null){',
        `vErrors = ${fn}.errors;`,
        '}',
        'else {',
        `for (const e of ${fn}.errors) keep(vErrors, e);`,
        '}',
        `errors += ${fn}.errors.length;`,
      ].join('\n'),
  ],
  [/^const (err\d+) = \{/gm, 'const $1 = --budget.left < 0 ? TOO_MANY : {'],
  [/^vErrors\.push\((err\d+)\);$/gm, 'keep(vErrors, $1);'],
  [
    /^if\(vErrors !== null\)\{\nif\((_errs\d+)\)\{\nvErrors\.length = \1;\n\}$/gm,
    [
      'if(vErrors !== null){',
      'if($1){',
      'budget.left += Math.max(0, vErrors.length - $1);',
      'if($1 < vErrors.length) vErrors.length = $1;',
      '}',
    ].join('\n'),
  ],
  [/^else \{\nvErrors = null;\n\}$/gm, 'else {\nbudget.left += vErrors.length;\nvErrors = null;\n}'],
  [/^export const (validate\w+) = (\w+);$/gm, 'export const $1 = budgeted($2);'],
];

/** What ajv would still do unbounded after the rewrite: a sign that this ajv writes its code differently. */
const UNBOUNDED = /vErrors\.concat\(|vErrors\.push\(|^vErrors\.length = _errs\d+;$|^const err\d+ = \{/m;

/**
 * The budgeted module of ajv's standalone code, given whole or as standaloneModule's parts (each starts at the top
 * level): every rewrite and the layout work on one part at a time, so a module of megabytes is never copied whole
 * once per rewrite, and the layout holds one part's lines at a time.
 */
export function budgetedCode(standalone: string | readonly string[], who: string): BudgetedCode {
  const helpers = new Set<string>();
  const code: string[] = [];
  const typed: string[] = [];
  const validators: string[] = [];
  for (const [index, part] of (typeof standalone === 'string' ? [standalone] : standalone).entries()) {
    const budgeted = budgetedPart(index === 0 ? part.replace(/^"use strict";\n?/, '') : part, who, helpers);
    code.push(layOut(budgeted));
    typed.push(layOut(typedCode(budgeted)));
    for (const match of budgeted.matchAll(/^function (validate\d+)\(/gm)) validators.push(match[1]!);
  }
  // ajv keeps a validator's errors on the function, as ajv's own API does; declared once for TypeScript.
  const declarations = validators.map((name) => `declare namespace ${name} { let errors: ValidationError[] | null; }`);
  return {
    code: code.join('').trim(),
    typedCode: `${typed.join('')}\n\n${layOut(declarations.join('\n'))}`.trim(),
    helpers: [...helpers].sort(),
  };
}

function budgetedPart(standalone: string, who: string, helpers: Set<string>): string {
  let code = standalone;
  for (const [pattern, replacement] of BUDGET_REWRITES)
    code = code.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
  code = code.replace(/require\("([^"]+)"\)\.default/g, (_match, module: string) => {
    const helper = RUNTIME_HELPERS[module];
    if (!helper) throw new Error(`the validators of ${who} need ${module}, which the server runtime does not provide`);
    helpers.add(helper);
    return helper;
  });
  if (UNBOUNDED.test(code))
    throw new Error(
      `the validators of ${who} keep errors in a way the budget rewrite does not know (this ajv's code changed): ` +
        'update generators/server/standalone.ts',
    );
  if (/\brequire\(/.test(code))
    throw new Error(`the validators of ${who} require a module the server runtime does not provide`);
  return prettySchemas(code);
}

/**
 * ajv writes each schema it keeps as one line of JSON (thousands of columns for a large one); they get one key a line.
 */
function prettySchemas(code: string): string {
  return code.replace(/^(const schema\d+ = )(.*);$/gm, (line, head: string, json: string) => {
    try {
      return `${head}${JSON.stringify(JSON.parse(json), null, 2)};`;
    } catch {
      return line;
    }
  });
}

/**
 * The TypeScript of the same code: ajv's untyped parameters and error list get the runtime's types, and the reads
 * that ajv knows to be non-null (a called validator's errors after it failed, a format it was given) say so.
 */
const TYPINGS: Array<[RegExp, string]> = [
  [
    /^function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{$/gm,
    'function $1(data: any, {instancePath="", parentData, parentDataProperty, rootData=data}: ValidateOptions = {}){',
  ],
  [/^let vErrors = null;$/gm, 'let vErrors: ValidationError[] | null = null;'],
  [/^(for \(const e of [\w.]+\.errors)\)/gm, '$1!)'],
  [/^(errors \+= [\w.]+\.errors)\.length;$/gm, '$1!.length;'],
  [/^(const formats\d+ = formats\["[^"]+"\]);$/gm, '$1!;'],
  // The errors of an `if` branch, which ajv only counts and discards, are empty objects.
  [/^(const err\d+ = --budget\.left < 0 \? TOO_MANY : )\{\};$/gm, '$1{} as ValidationError;'],
  [/^export const (validate\w+) = /gm, 'export const $1: ValidateFunction = '],
];

function typedCode(code: string): string {
  let typed = code;
  for (const [pattern, replacement] of TYPINGS) typed = typed.replace(pattern, replacement);
  if (/^function validate\d+\(data,/m.test(typed))
    throw new Error('ajv wrote a validator signature generators/server/standalone.ts does not type: update it');
  return typed;
}
