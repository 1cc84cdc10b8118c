/**
 * The node's password rule (utils/password: zxcvbn score >= 2 over the first 50 bytes) at a bounded cost: the mock's
 * decisions on a table of passwords, and its scores equal to @zxcvbn-ts/core's own dictionary matching (all 20
 * dictionaries, every match) on the same matchers, for generated passwords of every kind.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCORED_BYTES, passwordGuesses, passwordScore } from '../../mock/password.ts';

const require = createRequire(import.meta.url);

/**
 * The library's estimator with the mock's matchers, whose dictionary matching takes the library's own loop: a
 * non-empty user-input list makes the indexed matcher hand every call to the original (its one guard), and the one
 * input word (`qqqqqqqqqqqqqqqqqqqq`) occurs in none of the passwords below.
 */
function libraryGuesses(): (password: string) => { guesses: number; score: number } {
  passwordScore('make sure the mock has patched the matcher');
  const core = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  const factory = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    l33tMaxSubstitutions: 8,
    maxLength: SCORED_BYTES,
  });
  const { matchers } = (factory as unknown as { matching: { matchers: Record<string, object> } }).matching;
  for (const name of ['wordSequence', 'dictionaryReverse', 'separator']) delete matchers[name];
  return (password) => {
    const { guesses, score } = factory.check(password, ['qqqqqqqqqqqqqqqqqqqq']);
    return { guesses, score };
  };
}

/** Some of a word's letters written as l33t (`password` -> `p@55word`), so that l33t matches decide the guesses. */
const L33T: Record<string, string[]> = { a: ['4', '@'], e: ['3'], i: ['1', '!'], l: ['1', '|', '7'], o: ['0', '()'] };
const l33tWord = (word: string) =>
  fc
    .array(fc.nat(3), { minLength: word.length, maxLength: word.length })
    .map((picks) =>
      [...word].map((c, n) => (L33T[c] && picks[n]! > 0 ? L33T[c][picks[n]! % L33T[c].length] : c)).join(''),
    );

describe('keystore password strength', () => {
  it.each([
    ['a', false],
    ['password', false],
    ['passw0rd', false],
    ['P@ssw0rd!', false],
    ['letmein123', false],
    ['qwertyuiop', false],
    ['abcdefghijkl', false],
    ['123456789012', false],
    ['aaaaaaaaaaaaaaaaaaaaaaaa', false],
    ['dragonmonkey', false],
    // AvalancheGo's own test: a long run of words is very strong.
    ['thisisareallylongandpresumablyverystrongpassword', true],
    ['correct horse battery staple', true],
    ['Tr0ub4dor&3-xK9', true],
    ['Correct-Horse-Battery-Staple-9', true],
    ['vY7#qLm2!pZ', true],
    // Only the first 50 bytes count: strength after them does not help, weakness after them does not hurt.
    [`${'a'.repeat(50)}Tr0ub4dor&3-Correct-Horse-Battery-Staple`, false],
    [`thisisareallylongandpresumablyverystrongpassword12${'a'.repeat(2000)}`, true],
    // 50 bytes of a 3-byte character are 16 characters and a cut one, as Go's byte slice has it.
    ['界'.repeat(400), false],
  ])('%s: strong enough %s', (password, strong) => {
    expect(passwordScore(password) >= 2).toBe(strong);
  });

  it('estimates the guesses the library does with every dictionary match, for passwords of every kind', () => {
    const library = libraryGuesses();
    const words = ['correct', 'horse', 'Battery', 'staple', 'password', 'dragon', 'monkey', 'p@ss', 'l3tm3in', '2019'];
    const plain = ['password', 'sunshine', 'football', 'iloveyou', 'michelle', 'dolphin', 'letmein', 'alberta'];
    const password = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), maxLength: 60 }),
      fc.string({ unit: fc.constantFrom(...'p@55w0rd4$3!1|7abcelot'), maxLength: 60 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
      fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join('')),
      fc
        .array(fc.constantFrom(...plain).chain(l33tWord), { minLength: 1, maxLength: 6 })
        .chain((w) => fc.string({ unit: fc.constantFrom(...'0123456789!'), maxLength: 3 }).map((t) => w.join('') + t)),
    );
    fc.assert(
      fc.property(password, (p) => {
        // Guesses, not only the score (five bands): a match lost or mis-rated changes them in most cases.
        expect(passwordGuesses(p.slice(0, SCORED_BYTES))).toEqual(library(p.slice(0, SCORED_BYTES)));
      }),
      { numRuns: 200, seed: 19 },
    );
  });
});
