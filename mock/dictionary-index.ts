/**
 * zxcvbn's dictionary matching with the same matches at a fraction of the cost. @zxcvbn-ts/core looks every substring
 * of the password (up to the longest word, 30+ characters) up in each of its 20 dictionaries: about 30,000 lookups for
 * 50 characters, repeated for each l33t variant. Here one sorted list of every word answers, per substring, whether it
 * is a word and whether any word starts with it; a substring that starts no word ends the search from that position,
 * so most positions stop after a few characters. Only a substring that is a word is looked up in the dictionaries,
 * and only its best-ranked match is kept (see below), so the score is exactly the library's.
 *
 * The library's l33t matcher finds its words through its base class's `match` (a `super` call), so the faster
 * `match` replaces the base class's method: every dictionary matcher of the process gets it. The mock is the only
 * user of @zxcvbn-ts in the process, and the package is pinned, so the method's contract is known: without user
 * inputs and Levenshtein distance (both unused here) it returns, for each i <= j, a match per dictionary holding the
 * lowercased password's slice [i, j]. The test (test/mock/password.test.ts) compares scores with the library's own.
 */

export interface DictionaryMatcher {
  options: { rankedDictionaries: Record<string, Record<string, number>>; useLevenshteinDistance?: boolean };
  wordSequenceCheck?: boolean;
}

export interface MatchOptions {
  password: string;
  /** The words of `check(password, userInputs)`, ranked; empty (but present) when none are given. */
  userInputsOptions?: { rankedDictionary?: Record<string, number> };
}

interface DictionaryMatch {
  pattern: 'dictionary';
  i: number;
  j: number;
  token: string;
  matchedWord: string;
  rank: number;
  dictionaryName: string;
  reversed: false;
  l33t: false;
}

/**
 * The first index in [low, high) whose word has at position `at` a code unit of at least `code` (a word that ends
 * before `at` counts as -1). Every word in the range shares its first `at` characters, so the range is sorted by that
 * code unit: numbers are compared, never strings.
 */
function firstWithCodeAt(words: string[], at: number, code: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    const word = words[middle]!;
    if ((at < word.length ? word.charCodeAt(at) : -1) < code) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** A dictionary match's base guesses as @zxcvbn-ts/core rates them (dictionary/scoring: diceware words are 6^5 / 2). */
function guessesOf(dictionaryName: string, rank: number): number {
  return dictionaryName === 'diceware' ? 6 ** 5 / 2 : rank;
}

export class DictionaryIndex {
  private readonly words: string[];
  private readonly names: string[];
  /** Per word (same index as `words`): the dictionary and rank of its best-ranked match. */
  private readonly bestName: Uint16Array;
  private readonly bestRank: Uint32Array;

  constructor(dictionaries: Record<string, Record<string, number>>) {
    this.names = Object.keys(dictionaries);
    const all = new Set<string>();
    for (const name of this.names) for (const word of Object.keys(dictionaries[name]!)) all.add(word);
    this.words = [...all].sort();
    this.bestName = new Uint16Array(this.words.length);
    this.bestRank = new Uint32Array(this.words.length);
    // zxcvbn rates a dictionary match at its rank times variations that depend on the token alone, so of the matches
    // of one substring only the lowest rank can be part of the least guessable reading: the others are left out,
    // which changes no score and spares the scoring most of its work. Of equal ranks, the first dictionary.
    this.words.forEach((word, at) => {
      let best = -1;
      this.names.forEach((name, n) => {
        const rank = dictionaries[name]![word];
        if (
          rank !== undefined &&
          (best < 0 || guessesOf(name, rank) < guessesOf(this.names[best]!, this.bestRank[at]!))
        ) {
          best = n;
          this.bestRank[at] = rank;
        }
      });
      this.bestName[at] = best;
    });
  }

  /** The library's dictionary matches of `password` in its order, the best-ranked one per substring. */
  match(password: string): DictionaryMatch[] {
    const matches: DictionaryMatch[] = [];
    const lower = password.toLowerCase();
    for (let i = 0; i < password.length; i++)
      this.wordsFrom(lower, i, password.length, (j, word, rank, dictionaryName) => {
        matches.push({
          pattern: 'dictionary',
          i,
          j,
          token: password.slice(i, j + 1),
          matchedWord: word,
          rank,
          dictionaryName,
          reversed: false,
          l33t: false,
        });
      });
    return matches;
  }

  /**
   * Calls `found` for each j in [i, end), in order, for which `lower[i..j]` is a word, with its best-ranked match.
   * `end` is the length of the password before lowercasing (which may lengthen it), as the library has it.
   */
  wordsFrom(
    lower: string,
    i: number,
    end: number,
    found: (j: number, word: string, rank: number, dictionaryName: string) => void,
  ): void {
    const words = this.words;
    // The words that start with lower[i..j] lie in [low, high): each longer substring searches only inside it.
    let low = 0;
    let high = words.length;
    for (let j = i; j < end; j++) {
      const at = j - i;
      const code = lower.charCodeAt(j);
      low = firstWithCodeAt(words, at, code, low, high);
      high = firstWithCodeAt(words, at, code + 1, low, high);
      if (low === high) return;
      // The substring itself, if it is a word, sorts first among the words it starts.
      const word = words[low]!;
      if (word.length === at + 1) found(j, word, this.bestRank[low]!, this.names[this.bestName[low]!]!);
    }
  }
}

const indexes = new WeakMap<object, DictionaryIndex>();

/** The index of a matcher's dictionaries, built on first use; undefined where the index does not apply. */
export function indexFor(matcher: DictionaryMatcher, options: MatchOptions): DictionaryIndex | undefined {
  const inputs = options.userInputsOptions?.rankedDictionary;
  if ((inputs && Object.keys(inputs).length > 0) || matcher.wordSequenceCheck || matcher.options.useLevenshteinDistance)
    return undefined;
  const dictionaries = matcher.options.rankedDictionaries;
  let index = indexes.get(dictionaries);
  if (!index) indexes.set(dictionaries, (index = new DictionaryIndex(dictionaries)));
  return index;
}

/** Gives the class of `matcher` (the library's dictionary matcher, base of its l33t matcher) the indexed `match`. */
export function speedUpDictionaryMatching(matcher: object): void {
  const prototype = Object.getPrototypeOf(matcher) as {
    match: (this: DictionaryMatcher, options: MatchOptions) => unknown;
  };
  const original = prototype.match;
  prototype.match = function match(this: DictionaryMatcher, options: MatchOptions) {
    // What the index does not cover goes to the library's own loop.
    const index = indexFor(this, options);
    return index ? index.match(options.password) : original.call(this, options);
  };
}
