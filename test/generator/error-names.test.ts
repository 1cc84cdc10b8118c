/**
 * The names the generator gives documented errors (generators/model/errors.ts): every name of the project's spec is
 * unique whatever its case and none is cut short, a foreign message still makes a valid, whole name, and each renamed
 * name is listed where a user upgrading reads it (`x-renamed-errors`, the client README).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError, loadSpec } from '../../generators/load/index.ts';
import { MAX_WORDS, errorName, nameWords, uniqueNames } from '../../generators/model/errors.ts';
import { loadModel } from '../../generators/pipeline.ts';

const ROOT = join(import.meta.dirname, '../..');
const models = [loadModel(join(ROOT, 'openrpc')), loadModel(join(ROOT, 'openrpc/c-chain'))];
const endpoints = models.flatMap((model) => model.endpoints);
const errors = endpoints.flatMap((endpoint) =>
  endpoint.methods.flatMap((method) => method.errors.map((error) => ({ endpoint, method, error }))),
);
// The words a PascalCase name is made of, so its last one can be read ("MaxFeePerGasHigherThan" ends on "Than").
const wordsOf = (name: string) => name.match(/[A-Z][a-z]+|[A-Z0-9]+(?![a-z])|\d+/g) ?? [];

describe("the project's error names", () => {
  it('covers both spec sets (every check below would pass on none)', () => {
    expect(errors.length).toBeGreaterThan(150);
    expect(endpoints.map((e) => e.name)).toEqual(expect.arrayContaining(['p-chain', 'dev', 'c-chain-rpc']));
  });

  it('spells each name one way: no two names differ only in case', () => {
    const spellings = new Map<string, Set<string>>();
    for (const { error } of errors) {
      const key = error.name.toLowerCase();
      spellings.set(key, (spellings.get(key) ?? new Set()).add(error.name));
    }
    const twins = [...spellings.values()].filter((names) => names.size > 1).map((names) => [...names]);
    expect(twins).toEqual([]);
  });

  it('names each error of a method once, whatever the case', () => {
    for (const endpoint of endpoints)
      for (const method of endpoint.methods) {
        const names = method.errors.map((error) => error.name.toLowerCase());
        expect(new Set(names).size, method.name).toBe(names.length);
      }
  });

  it('never cuts a name made from a message: its first sentence fits MAX_WORDS, else the spec gives x-error-name', () => {
    const made = errors.filter(({ error }) => error.name === errorName(undefined, error.message));
    expect(made.length).toBeGreaterThan(50);
    const cut = made.filter(({ error }) => nameWords(error.message).length > MAX_WORDS);
    expect(cut.map(({ method, error }) => `${method.name}: ${error.name}`)).toEqual([]);
  });

  it('ends no name on a word that leads into what it left out (Than, To, Of, ...)', () => {
    const leadIn = /^(?:A|An|And|At|Be|But|By|Due|For|From|In|Into|Is|Of|On|Or|Than|The|To|With)$/;
    const dangling = errors.filter(({ error }) => leadIn.test(wordsOf(error.name).at(-1) ?? ''));
    expect(dangling.map(({ method, error }) => `${method.name}: ${error.name}`)).toEqual([]);
  });

  it('keeps the digits of a word and the words that tell two errors apart', () => {
    const names = new Set(errors.map(({ error }) => error.name));
    for (const name of ['L1ValidatorNotFound', 'SubnetIsAlreadyAnL1', 'GasUint64Overflow'])
      expect(names, name).toContain(name);
    expect(names).toContain('MaxFeePerGasLessThanBlockBaseFee');
    expect(names).toContain('MaxPriorityFeePerGasHigherThanMaxFeePerGas');
  });

  it('lists every renamed name: its new name is in use on that endpoint, its old one no longer is', () => {
    const renamed = endpoints.flatMap((endpoint) => endpoint.renamedErrors.map((r) => ({ endpoint, ...r })));
    expect(renamed.length).toBeGreaterThan(0);
    for (const { endpoint, from, to } of renamed) {
      const names = endpoint.methods.flatMap((method) => method.errors.map((error) => error.name));
      expect(names, `${endpoint.name}: ${to}`).toContain(to);
      expect(names, `${endpoint.name}: ${from}`).not.toContain(from);
    }
  });
});

describe('a name made from a message (a foreign spec without x-error-name)', () => {
  it('takes every word of the first sentence, the variable parts left out where they start a word', () => {
    expect(errorName(undefined, 'Max fee per gas less than block base fee')).toBe('MaxFeePerGasLessThanBlockBaseFee');
    expect(errorName(undefined, 'L1 validator 2BtiRkgcbsr1B44oXxAEy8w4pn9UG19XjXPxV7AvUzgn2FJQab not found')).toBe(
      'L1ValidatorNotFound',
    );
    expect(errorName(undefined, "couldn't get block at height 5: not found")).toBe('CouldntGetBlockAtHeightNotFound');
    expect(errorName(undefined, 'Gas price too low / Gas price below configured minimum')).toBe('GasPriceTooLow');
    expect(errorName(undefined, 'account locked. Unlock it with personal_unlockAccount')).toBe('AccountLocked');
  });

  it('drops a lead-in word left at the end, and names a message of no words', () => {
    expect(errorName(undefined, 'Max fee per gas higher than 2^256-1')).toBe('MaxFeePerGasHigher');
    expect(errorName(undefined, '42')).toBe('Error');
    expect(errorName(undefined, '5 signers missing')).toBe('SignersMissing');
  });

  it('stops a prose message after MAX_WORDS words, never on a lead-in word', () => {
    const prose =
      'the node does not support storage proofs for blocks that are too far in the past of the chain it follows';
    const name = errorName(undefined, prose);
    expect(wordsOf(name).length).toBeLessThanOrEqual(MAX_WORDS);
    expect(name).toBe('TheNodeDoesNotSupportStorageProofsForBlocksThatAreToo');
    expect(name).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
  });

  it('numbers errors of one method that make the same name, whatever their case', () => {
    const named = uniqueNames([
      { name: errorName(undefined, 'execution reverted'), code: 3, message: 'execution reverted' },
      { name: errorName(undefined, 'Execution reverted'), code: 3, message: 'Execution reverted' },
      { name: 'UTXOUnknown', code: 1, message: 'a' },
      { name: 'UtxoUnknown', code: 1, message: 'b' },
    ]);
    expect(named.map((error) => error.name)).toEqual([
      'ExecutionReverted',
      'ExecutionReverted2',
      'UTXOUnknown',
      'UtxoUnknown2',
    ]);
  });
});

describe('the loader', () => {
  const temp = mkdtempSync(join(tmpdir(), 'error-names-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('refuses an error name or a rename that is not a PascalCase name, with file and pointer', () => {
    const file = join(temp, 'ledger.json');
    const document = {
      openrpc: '1.3.2',
      'x-renamed-errors': { AccountLocked: 'account locked' },
      info: { title: 'Ledger', version: '1.0.0' },
      methods: [
        {
          name: 'ledger_balance',
          params: [],
          result: { name: 'balance', schema: { type: 'string' } },
          errors: [{ code: -32010, message: 'account 42 is locked', 'x-error-name': 'account-locked' }],
        },
      ],
    };
    writeFileSync(file, JSON.stringify(document));
    let problems: SpecError['problems'] = [];
    try {
      loadSpec([file]);
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      problems = error.problems;
    }
    expect(problems.map(({ file, pointer }) => `${basename(file)} ${pointer}`).sort()).toEqual([
      'ledger.json /methods/0/errors/0/x-error-name',
      'ledger.json /x-renamed-errors',
    ]);
  });
});
