/**
 * zxcvbn's l33t matching with the same matches at a fraction of the cost. @zxcvbn-ts/core 4.2 unmunges the password
 * into up to `l33tMaxSubstitutions` variants (`p@ss` -> `pass`) and, for each, runs the whole dictionary matching,
 * maps every match back to the password (a pass over all substitutions per match), copies it twice and compares it
 * with every match kept so far (quadratic), only to drop all but the few that cover a substitution: a match that
 * covers none has the token of a plain dictionary match and is dropped by the library's own test. Here the variants
 * are the library's own (its unmunger), only the words that cover a substitution are mapped back and kept, and
 * duplicates are found by key. The matches, their order and their fields are the library's (MatchL33t.match), so the
 * scores are; test/mock/password.test.ts compares them with the library's own.
 */
import { createRequire } from 'node:module';
import { type DictionaryMatcher, type MatchOptions, indexFor } from './dictionary-index.ts';

interface Change {
  /** Index of the letter in the unmunged variant. */
  i: number;
  letter: string;
  substitution: string;
}

interface Variant {
  password: string;
  changes: Change[];
  isFullSubstitution: boolean;
}

interface L33tMatcher extends DictionaryMatcher {
  options: DictionaryMatcher['options'] & { l33tMaxSubstitutions: number; trieNodeRoot: unknown };
}

type GetCleanPasswords = (password: string, limit: number, trieRoot: unknown) => Variant[];

/**
 * @zxcvbn-ts/core is pinned and has no exports map: its unmunger is required by path, when the matcher is sped up
 * (the dictionaries load on the first createUser, never at start-up).
 */
let getCleanPasswords: GetCleanPasswords;

function l33tMatches(matcher: L33tMatcher, options: MatchOptions, index: NonNullable<ReturnType<typeof indexFor>>) {
  const { password } = options;
  const matches: object[] = [];
  const kept = new Set<string>();
  const variants = getCleanPasswords(password, matcher.options.l33tMaxSubstitutions, matcher.options.trieNodeRoot);
  for (const { password: variant, changes } of variants) {
    const lower = variant.toLowerCase();
    // Changes are in order of position; a word from i must reach the first change at or after i.
    let next = 0;
    let hasFullMatch = false;
    const last = changes.length > 0 ? changes[changes.length - 1]!.i : -1;
    for (let i = 0; i < variant.length && (i === 0 || i <= last); i++) {
      while (next < changes.length && changes[next]!.i < i) next++;
      const reach = next < changes.length ? changes[next]!.i : variant.length;
      index.wordsFrom(lower, i, variant.length, (j, word, rank, dictionaryName) => {
        // The library stops at the first variant that is a word as a whole (after keeping its matches).
        if (i === 0 && j === variant.length - 1) hasFullMatch = true;
        if (j < reach) return;
        const match = backToPassword(password, changes, i, j);
        const key = `${match.i} ${match.j} ${dictionaryName} ${word}`;
        // The library's filters: a token it reads as the word itself, single characters, duplicates.
        if (match.token.toLowerCase() === word || match.token.length <= 1 || kept.has(key)) return;
        kept.add(key);
        matches.push({
          pattern: 'dictionary',
          matchedWord: word,
          rank,
          dictionaryName,
          reversed: false,
          l33t: true,
          ...match,
        });
      });
    }
    if (hasFullMatch) break;
  }
  return matches;
}

/** Where variant[i..j] lies in the password, its substitutions (first of each kind) as the library lists them. */
function backToPassword(password: string, changes: Change[], i: number, j: number) {
  let from = i;
  let to = j;
  const subs: { letter: string; substitution: string }[] = [];
  const shown: string[] = [];
  for (const change of changes) {
    const longer = change.substitution.length - change.letter.length;
    if (change.i < i) {
      from += longer;
      to += longer;
    } else if (change.i <= j) {
      to += longer;
      if (!subs.some((s) => s.letter === change.letter && s.substitution === change.substitution)) {
        subs.push({ letter: change.letter, substitution: change.substitution });
        shown.push(`${change.substitution} -> ${change.letter}`);
      }
    } else break;
  }
  return { i: from, j: to, token: password.slice(from, to + 1), subs, subDisplay: shown.join(', ') };
}

/** Gives the library's l33t matcher (the class of `matcher`) the indexed `match`. */
export function speedUpL33tMatching(matcher: object): void {
  getCleanPasswords = createRequire(import.meta.url)(
    '@zxcvbn-ts/core/dist/matcher/dictionary/variants/matching/unmunger/getCleanPasswords.cjs',
  ) as GetCleanPasswords;
  const prototype = Object.getPrototypeOf(matcher) as { match: (this: L33tMatcher, options: MatchOptions) => unknown };
  const original = prototype.match;
  prototype.match = function match(this: L33tMatcher, options: MatchOptions) {
    const index = indexFor(this, options);
    return index ? l33tMatches(this, options, index) : original.call(this, options);
  };
}
