/**
 * The generated client reads like code: no line over 120 columns, each documented error's pattern written once, the
 * errors table one entry a line, and error names from the spec (`x-error-name` where the message makes a poor one).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wideLines } from '../support/wide-lines.ts';

const SRC = join(import.meta.dirname, '../../generated/client/src');
const modules = readdirSync(SRC)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => ({ name, text: readFileSync(join(SRC, name), 'utf8') }));
const endpoints = modules.filter(({ text }) => text.includes('const DOCUMENTED_ERRORS = {'));

describe('the generated client', () => {
  it('has endpoint modules to check (every check below would pass on none)', () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(9);
  });

  it('keeps its code within 120 columns, comments wrapped', () => {
    for (const { name, text } of modules) {
      expect(wideLines(text), name).toEqual([]);
    }
  });

  it('writes each documented error once, and each method’s table one entry a line', () => {
    for (const { name, text } of endpoints) {
      const table = text.slice(text.indexOf('const DOCUMENTED_ERRORS = {'), text.indexOf('const ERRORS = {'));
      const patterns = [...table.matchAll(/\/\^.*\$\//g)].map((m) => m[0]);
      expect(new Set(patterns).size, name).toBe(patterns.length);
      const tables = text.slice(text.indexOf('const DOCUMENTED_ERRORS = {'), text.indexOf('\nexport class '));
      const invalidArgument = tables.match(/unmarshal an argument/g) ?? [];
      expect(invalidArgument.length, name).toBeLessThanOrEqual(1);
      expect(text, name).not.toMatch(/^ {2}\w+: \{ \w+: \[-?\d+, \//m);
    }
  });

  it('names errors as the spec does, x-error-name where the message would make a poor name', () => {
    const pChain = endpoints.find(({ name }) => name === 'p-chain.ts')!.text;
    expect(pChain).toContain("getL1Validator: 'InvalidArgument' | 'L1ValidatorNotFound';");
    expect(pChain).toContain('UTXOEncodingUnsupported: DOCUMENTED_ERRORS.UTXOEncodingUnsupported');
    expect(pChain).toContain('RewardUTXOEncodingUnsupported: DOCUMENTED_ERRORS.RewardUTXOEncodingUnsupported');
    for (const { name, text } of endpoints) expect(text, name).not.toMatch(/FetchingLValidator|CouldntEncodeUtxo/i);
    // Names cut short or spelled two ways are test/generator/error-names.test.ts's to catch, over the model.
    const names = endpoints.flatMap(({ text }) => [...text.matchAll(/^ {2}(\w+): \[/gm)].map((m) => m[1]!));
    expect(names).toContain('ImportInsufficientFunds');
  });
});
