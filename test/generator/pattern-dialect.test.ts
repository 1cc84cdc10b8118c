/**
 * A `pattern` of a plain OpenRPC document is an ECMA-262 regular expression (JSON Schema draft-07, sections 4.3 and
 * 6.3.3). The generated server matches patterns it cannot prove linear with RE2 (runtime/server/patterns.ts), whose
 * `.` and `\s` mean other things: these tests call such a server over HTTP on 127.0.0.1 with values where they differ.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RE2JS } from 're2js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeIsLinear } from '../../runtime/server/backtracking.ts';
import { linearRegExp } from '../../runtime/server/patterns.ts';
import { withEcmaClasses } from '../../runtime/server/regexp-subset.ts';
import { serverNames } from '../../generators/model/names.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';
import { documentPatterns } from '../support/document-patterns.ts';
import { callRpc, listen } from '../support/rpc.ts';

const ROOT = resolve(import.meta.dirname, '../..');
// Inside the toolkit's node_modules, as corpus-round-trip.test.ts does, so the server resolves ajv and re2js.
const cache = join(ROOT, 'node_modules/.cache');
mkdirSync(cache, { recursive: true });
const temp = mkdtempSync(join(cache, 'pattern-dialect-'));

// Nested quantifiers: backtracking.ts cannot prove V8 linear on them, so RE2 matches them.
const WORDS = '^(\\w+\\s?)*$';
const CSV = '^(.*,)*.*$';
const document = {
  openrpc: '1.3.2',
  info: { title: 'Patterns', version: '1.0.0' },
  methods: [
    {
      name: 'check',
      paramStructure: 'by-name',
      params: [
        { name: 'words', schema: { type: 'string', pattern: WORDS } },
        { name: 'csv', schema: { type: 'string', pattern: CSV } },
      ],
      result: { name: 'ok', schema: { type: 'boolean' } },
    },
  ],
};

let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  mkdirSync(join(temp, 'spec'));
  writeFileSync(join(temp, 'spec/patterns.json'), JSON.stringify(document));
  const model = loadModel(join(temp, 'spec'));
  for (const file of await renderArtifacts(model, { artifacts: ['server'] })) {
    mkdirSync(dirname(join(temp, 'out', file.path)), { recursive: true });
    writeFileSync(join(temp, 'out', file.path), file.contents);
  }
  const server = await import(pathToFileURL(join(temp, 'out/server/dist/index.js')).href);
  const names = serverNames(model.endpoints[0]!.typeName);
  const handlers = Object.fromEntries(
    (server[names.methods] as Array<{ handler: string }>).map((spec) => [spec.handler, () => true]),
  );
  ({ url, close } = await listen(server.createRouter({ '/': server[names.create](handlers) }).node));
}, 120_000);
afterAll(async () => {
  await close?.();
  rmSync(temp, { recursive: true, force: true });
});

const accepted = async (params: object) => (await callRpc(url, 'check', params)).error === undefined;

describe('patterns of a plain OpenRPC document, as ECMA-262 reads them', () => {
  it('agree with ECMA-262 where RE2 does too (the test can tell acceptance from refusal)', async () => {
    expect(new RegExp(WORDS, 'u').test('Ana Lopes')).toBe(true);
    expect(await accepted({ words: 'Ana Lopes' })).toBe(true);
    expect(await accepted({ words: 'Ana, Lopes' })).toBe(false);
  });

  // Bug: in ECMA-262, `\s` matches every Unicode space (U+00A0, U+FEFF, U+2028, U+1680...); RE2's `\s` is ASCII
  // [\t\n\f\r ] only. `Ana\u00a0Lopes` matches `^(\w+\s?)*$` by JSON Schema's rule (draft-07 6.3.3: ECMA-262), yet
  // the generated server refuses it with -32602. Correct: the server accepts what the pattern matches in ECMA-262,
  // as any JSON Schema validator does (ajv with its default RegExp). Suspected: runtime/server/patterns.ts (RE2JS
  // given JavaScript's syntax as is, without translating `\s` to ECMA-262's class).
  it('accepts a value whose space is a no-break space, which \\s matches', async () => {
    expect(new RegExp(WORDS, 'u').test('Ana\u00a0Lopes')).toBe(true);
    expect(await accepted({ words: 'Ana\u00a0Lopes' })).toBe(true);
  });

  // Bug: in ECMA-262, `.` matches anything but the line terminators \n, \r, U+2028 and U+2029; RE2's `.` excludes
  // only \n. `a\rb` does not match `^(.*,)*.*$` by ECMA-262, yet the generated server accepts it. Correct: refuse it
  // with -32602 (invalid params). Suspected: runtime/server/patterns.ts (`.` not translated to [^\n\r\u2028\u2029]).
  it('refuses a value holding a carriage return or U+2028, which . does not match', async () => {
    for (const csv of ['a\rb', 'a\u2028b']) {
      expect(new RegExp(CSV, 'u').test(csv)).toBe(false);
      expect(await accepted({ csv }), JSON.stringify(csv)).toBe(false);
    }
  });
});

describe('ECMA-262 classes for RE2', () => {
  const PROBES = [
    '',
    'a',
    ' ',
    '\u00a0',
    '\ufeff',
    '\u2028',
    '\u3000',
    '\t',
    '\r',
    '\n',
    '\\s',
    '.',
    'é',
    '_',
    ',',
    'a b',
    '\u00a0a',
  ];

  // Each left to RE2 by a repeated group, and each with \s, \S or `.` where RE2 reads them otherwise: in and out of a
  // class, negated, escaped (`\\s` is a backslash and an s, `[.]` and `\.` a dot).
  it.each([
    '^(\\s*\\S)*$',
    '^([\\s,]+a)*$',
    '^([^\\s]+,?)*$',
    '^([\\S\\n]+)*$',
    '^(.|\\n)*$',
    '^([.]+a?)*$',
    '^(\\.+a?)*$',
    '^(\\\\s+a?)*$',
    '^(\\w+\\b,?)*$',
  ])('%s matches as ECMA-262 reads it', (pattern) => {
    expect(nativeIsLinear(pattern)).toBe(false);
    const ecma = new RegExp(pattern, 'u');
    const linear = linearRegExp(pattern);
    for (const probe of PROBES) {
      expect(linear.test(probe), JSON.stringify(probe)).toBe(ecma.test(probe));
      expect(linear.test(`${probe}${probe}`), JSON.stringify(probe)).toBe(ecma.test(`${probe}${probe}`));
    }
  });

  it('stays linear on a hostile value', () => {
    const hostile = `${'a '.repeat(100_000)}!`;
    expect(linearRegExp('^(\\w+\\s?)*$').test(hostile)).toBe(false);
    expect(linearRegExp('^(.*,)*.*$').test(`${','.repeat(100_000)}\u2028`)).toBe(false);
  });

  // The node is Go, and its documents' patterns mean what RE2 reads: the one RE2 matches has no class the two read
  // otherwise, so the Avalanche documents are matched as before.
  it("leaves the Avalanche documents' patterns that RE2 matches as they are", () => {
    const toRe2 = documentPatterns(['generated/openrpc']).filter((pattern) => !nativeIsLinear(pattern));
    expect(toRe2.length).toBeGreaterThan(0);
    for (const pattern of toRe2) {
      expect(withEcmaClasses(pattern)).toBe(pattern);
      expect(RE2JS.translateRegExp(withEcmaClasses(pattern))).toBe(RE2JS.translateRegExp(pattern));
    }
  });
});
