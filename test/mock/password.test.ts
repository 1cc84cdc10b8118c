/**
 * The node's password rule (utils/password: zxcvbn score >= 2 over the first 50 bytes), scored by @zxcvbn-ts/core as
 * published: the mock's decisions on a table of passwords, and the cut at 50 bytes as Go's byte slice makes it.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { SCORED_BYTES, passwordScore } from '../../mock/password.ts';

const require = createRequire(import.meta.url);

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

  it('scores only the first 50 bytes, with what the library itself answers for them', () => {
    const core = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    const library = new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
    });
    const strong = 'Tr0ub4dor&3-Correct-Horse-Battery';
    // The first 50 bytes are weak, the rest strong: the mock scores the weak part, the library the whole.
    const password = `${'a'.repeat(SCORED_BYTES)}${strong}`;
    expect(passwordScore(password)).toBe(library.check('a'.repeat(SCORED_BYTES)).score);
    expect(library.check(password).score).toBeGreaterThan(passwordScore(password));
    expect(passwordScore(strong)).toBe(library.check(strong).score);
  });
});
