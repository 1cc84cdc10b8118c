/**
 * Redaction that fails closed (issue 24 item 3): keys matched as Go's encoding/json matches them (checked against
 * orbits copied from Go's unicode tables), JSON escapes undone, methods resolved as the node's codec resolves them,
 * and every body that is not exactly one request recorded without its params.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { transcriptBody } from '../../conform/transcript.ts';
import { goFoldMatcher } from '../../conform/go-fold.ts';
import {
  LOOKALIKE,
  NOT_JSON,
  NOT_ONE_REQUEST,
  POSITIONAL,
  REDACTED,
  Redactor,
  UNDESCRIBED,
} from '../../conform/redact.ts';
import { loadSpecModel } from '../../conform/spec.ts';

const PASSWORD = 'Correct-Horse-Battery-Staple-9';

describe("Go's key folding", () => {
  // Orbits of unicode.SimpleFold as Go's unicode/tables.go lists them (caseOrbit) and its case ranges pair them.
  const orbits = [
    [0x4b, 0x6b, 0x212a],
    [0x53, 0x73, 0x17f],
    [0xb5, 0x39c, 0x3bc],
    [0xc5, 0xe5, 0x212b],
    [0xdf, 0x1e9e],
    [0x1c4, 0x1c5, 0x1c6],
    [0x345, 0x399, 0x3b9, 0x1fbe],
    [0x398, 0x3b8, 0x3d1, 0x3f4],
    [0x3a3, 0x3c2, 0x3c3],
    [0x3a9, 0x3c9, 0x2126],
    [0x13a0, 0xab70],
    [0x10d0, 0x1c90],
    [0x10400, 0x10428],
  ].map((orbit) => orbit.map((c) => String.fromCodePoint(c)));

  it('matches every pair of an orbit, and nothing across orbits', () => {
    for (const orbit of orbits)
      for (const a of orbit) for (const b of orbit) expect([a, b, goFoldMatcher(a)(b)]).toEqual([a, b, true]);
    for (const [i, orbit] of orbits.entries())
      for (const other of orbits.slice(i + 1)) expect(goFoldMatcher(orbit[0]!)(other[0]!)).toBe(false);
  });

  it.each([
    ['password', 'PASSWORD', true],
    ['password', 'PaSsWoRd', true],
    ['password', 'paſſword', true],
    ['kelvin', '\u212aelvin', true],
    ['password', 'paßword', false], // ß folds to "ss" only in full case folding, which Go does not use
    ['id', '\u0131d', false], // dotless ı: Go's orbit of U+0131 is itself (Turkic folding, status T)
    ['id', '\u0130d', false], // İ likewise
    ['ff', '\ufb00', false], // the ligature ﬀ folds to "ff" only in full folding
    ['password', 'password ', false],
    ['password', 'passwor', false],
    ['a.b', 'aXb', false], // the name is text, not a pattern
    ['user', 'username', false],
  ])('%s matches %s: %s', (name, key, same) => {
    expect(goFoldMatcher(name)(key)).toBe(same);
  });
});

describe('the redactor', () => {
  const redactor = new Redactor(loadSpecModel());
  const body = (method: unknown, params: unknown, extra = '') =>
    `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}${extra}}`;
  const recorded = (text: string) => {
    const reading = redactor.request(transcriptBody(text));
    const json = JSON.stringify(reading.json ?? null);
    expect(json).not.toContain(PASSWORD);
    return reading;
  };

  it('redacts a password under every key spelling the node accepts, escaped or folded', () => {
    for (const key of ['password', 'PASSWORD', 'paſſword', 'Pass\\u0077ord', 'pa\\u017f\\u017fword']) {
      const text = `{"jsonrpc":"2.0","id":1,"method":"keystore.createUser","params":{"username":"a","${key}":"${PASSWORD}"}}`;
      const reading = recorded(text);
      expect(reading.json).toMatchObject({ params: { username: 'a' } });
      expect(Object.values((reading.json as { params: object }).params)).toEqual(['a', REDACTED]);
    }
  });

  it('finds the envelope as the node does: `PARAMS` and `Method` are params and method', () => {
    const reading = recorded(
      `{"jsonrpc":"2.0","id":1,"Method":"keystore.createUser","PARAMS":{"password":"${PASSWORD}"}}`,
    );
    expect(reading).toMatchObject({ method: 'keystore.createUser', json: { PARAMS: { password: REDACTED } } });
  });

  it('records a body the node accepts despite trailing bytes without its params', () => {
    const reading = recorded(`${body('keystore.createUser', { username: 'a', password: PASSWORD }, '')}trailing`);
    expect(reading).toMatchObject({ method: 'keystore.createUser', note: NOT_ONE_REQUEST, json: { params: REDACTED } });
  });

  it('records batches, refused and look-alike methods, and bodies with no method without their params', () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'keystore.createUser', params: { pwd: PASSWORD } };
    expect(recorded(JSON.stringify([call, call]))).toMatchObject({
      note: NOT_ONE_REQUEST,
      json: [{ params: REDACTED }, { params: REDACTED }],
    });
    for (const method of ['keystore.CreateUser', 'KEYSTORE.createuser', 'keystore.createUſer'])
      expect(recorded(body(method, [PASSWORD]))).toMatchObject({ note: LOOKALIKE, json: { params: REDACTED } });
    expect(recorded(body(42, { x: PASSWORD }))).toMatchObject({ note: NOT_ONE_REQUEST, json: { params: REDACTED } });
    expect(recorded(`{"params":{"x":"${PASSWORD}"}}`)).toMatchObject({ json: { params: REDACTED } });
  });

  it('redacts every param a method with secrets does not declare: the node would not read it as harmless', () => {
    expect(recorded(body('keystore.createUser', [{ username: 'a', pwd: PASSWORD }, { username: 'b' }]))).toMatchObject({
      json: { params: [{ username: 'a', pwd: REDACTED }, { username: 'b' }] },
    });
  });

  it('redacts whole a value that cannot hold what the spec expects, and a bare string body', () => {
    expect(recorded(body('keystore.createUser', PASSWORD))).toMatchObject({ json: { params: REDACTED } });
    expect(recorded(body('keystore.createUser', [PASSWORD, { password: PASSWORD }]))).toMatchObject({
      json: { params: [REDACTED, { password: REDACTED }] },
    });
    expect(recorded(JSON.stringify(PASSWORD)).json).toBe(REDACTED);
  });

  it('does not record what is not JSON to the node', () => {
    expect(
      redactor.request(transcriptBody(`{"method":"keystore.createUser","params":{"password":"${PASSWORD}"`)),
    ).toEqual({
      note: NOT_JSON,
      secretive: true,
    });
  });

  it('redacts a key named like a secret in any method, and leaves other methods as they were', () => {
    const reading = recorded(body('info.getNodeID', { nested: [{ Password: PASSWORD }], height: '5' }));
    expect(reading).toMatchObject({
      secretive: false,
      json: { params: { nested: [{ Password: REDACTED }], height: '5' } },
    });
    expect(recorded(body('platform.getHeight', {})).json).toEqual(JSON.parse(body('platform.getHeight', {})));
  });

  it("redacts an answer's error data (gorilla/rpc echoes the request there) and the secret results", () => {
    const reading = redactor.request(
      transcriptBody(body('keystore.exportUser', { username: 'a', password: PASSWORD })),
    );
    const answer = { jsonrpc: '2.0', result: { user: '0xdeadbeef', encoding: 'hex' }, id: 1 };
    expect(redactor.response(reading, answer)).toEqual({ ...answer, result: { user: REDACTED, encoding: 'hex' } });
    const refused = { jsonrpc: '2.0', error: { code: -32600, message: 'x', data: { params: PASSWORD } }, id: 1 };
    expect(redactor.response(reading, refused)).toMatchObject({ error: { data: REDACTED } });
  });

  it('records a method the spec does not describe without its params, whatever their shape', () => {
    for (const params of [[PASSWORD], { key: PASSWORD }, PASSWORD])
      for (const method of ['debug_setHead', 'personal_ImportRawKey', 'wallet.importKey'])
        expect(recorded(body(method, params))).toMatchObject({ note: UNDESCRIBED, json: { params: REDACTED } });
  });

  it("keeps coreth's personal_* params but the secrets' positions, and hides initializeWallet's mnemonic", () => {
    const address = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
    expect(recorded(body('personal_unlockAccount', [address, PASSWORD, 300]))).toMatchObject({
      note: POSITIONAL,
      json: { params: [address, REDACTED, 300] },
    });
    expect(recorded(body('personal_importRawKey', [PASSWORD]))).toMatchObject({ json: { params: [REDACTED] } });
    expect(recorded(body('personal_newAccount', { password: PASSWORD }))).toMatchObject({ json: { params: REDACTED } });
    const wallet = redactor.request(transcriptBody(body('personal_initializeWallet', ['keycard://044def09'])));
    expect(wallet.json).toMatchObject({ params: ['keycard://044def09'] });
    expect(redactor.response(wallet, { jsonrpc: '2.0', id: 1, result: PASSWORD })).toMatchObject({ result: REDACTED });
  });

  it('redacts the params a conformance report shows, leaving the runner its own copy', () => {
    const params = { username: 'a', password: PASSWORD };
    expect(redactor.reportParams('keystore.createUser', params)).toEqual({ username: 'a', password: REDACTED });
    expect(params.password).toBe(PASSWORD);
  });
});

describe('the redactor on schemas huge once written out', () => {
  it('walks a value beside its schema: 64 doubling levels, and a recursive schema 100,000 levels deep', () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const schemas: Record<string, object> = {
      S0: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
      Tree: { type: 'object', properties: { child: ref('Tree'), pin: { type: 'string', 'x-sensitive': true } } },
    };
    for (let i = 1; i <= 64; i++)
      schemas[`S${i}`] = { type: 'object', properties: { a: ref(`S${i - 1}`), b: ref(`S${i - 1}`) } };
    const methods = ['S64', 'Tree'].map((name, i) => ({
      name: `m_${i}`,
      params: [{ name: 'p', schema: ref(name) }],
      result: { name: 'r', schema: ref(name) },
    }));
    const dir = mkdtempSync(join(tmpdir(), 'redact-'));
    try {
      const document = {
        openrpc: '1.3.2',
        info: { title: 'deep', version: '1.0.0' },
        methods,
        components: { schemas },
      };
      writeFileSync(join(dir, 'deep.json'), JSON.stringify(document));
      const redactor = new Redactor(loadSpecModel(dir));
      let doubled: object = { secret: PASSWORD, other: 'kept' };
      for (let i = 0; i < 64; i++) doubled = { a: doubled, b: 1 };
      const reading = redactor.request(
        transcriptBody(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'm_0', params: { p: doubled } })),
      );
      let value = (reading.json as { params: { p: Record<string, unknown> } }).params.p;
      for (let i = 0; i < 64; i++) value = value.a as Record<string, unknown>;
      expect(value).toEqual({ secret: REDACTED, other: 'kept' });
      // Written by hand: JSON.stringify would overflow the stack on a value this deep.
      const depth = 100_000;
      const text = `{"jsonrpc":"2.0","id":1,"method":"m_1","params":{"p":${'{"child":'.repeat(depth)}{"pin":"${PASSWORD}"}${'}'.repeat(depth)}}}`;
      let tree = (redactor.request(transcriptBody(text)).json as { params: { p: Record<string, unknown> } }).params.p;
      for (let i = 0; i < depth; i++) tree = tree.child as Record<string, unknown>;
      expect(tree).toEqual({ pin: REDACTED });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
