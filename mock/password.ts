/**
 * The node's password strength rule (utils/password at v1.12.1): the zxcvbn score of the password's first 50 bytes
 * (`password[:maxCheckedPassLen]` in Go). The node uses a Go port of zxcvbn (nbutton23/zxcvbn-go) with its English
 * dictionaries; the mock uses @zxcvbn-ts with the common and English dictionaries, which scores the same passwords the
 * same way in all but borderline cases. Loaded on first use (its dictionaries take a few hundred milliseconds).
 *
 * Cost is bounded per call: never more than the 50 bytes the node scores; the l33t matcher (which tries every
 * combination of substitutions and took up to half a second for a password of symbols) tries at most
 * L33T_SUBSTITUTIONS of them; matchers the Go port does not have (reversed words, word sequences, separators) are
 * left out; dictionary lookups go through one sorted word list (dictionary-index.ts) instead of 20 dictionaries
 * per substring, l33t variants keep only the words that cover a substitution (l33t-matching.ts), and the search for
 * the least guessable reading makes no object per brute-force span (password-scoring.ts): the same guesses as the
 * library's, at about 1-3 ms a call (`npm run bench -- password`). Verdicts are remembered by the password's hash
 * (never the password), boundedly.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { speedUpDictionaryMatching } from './dictionary-index.ts';
import { speedUpL33tMatching } from './l33t-matching.ts';
import { speedUpScoring } from './password-scoring.ts';

/** Bytes of the password (UTF-8) the node scores. */
export const SCORED_BYTES = 50;
const L33T_SUBSTITUTIONS = 8;
const REMEMBERED = 4096;

let estimator: ZxcvbnFactory | undefined;
const verdicts = new Map<string, number>();

/** 0 (too guessable) to 4 (very unguessable), of the characters the node scores. */
export function passwordScore(password: string): number {
  // Go slices the string's bytes; a character cut in half decodes as U+FFFD, as Go's range over the string reads it.
  const bytes = Buffer.from(password, 'utf8');
  const scored = bytes.length <= SCORED_BYTES ? password : bytes.subarray(0, SCORED_BYTES).toString('utf8');
  const key = createHash('sha256').update(scored).digest('base64');
  let score = verdicts.get(key);
  if (score === undefined) {
    score = passwordGuesses(scored).score;
    if (verdicts.size >= REMEMBERED) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, score);
  }
  return score;
}

/** zxcvbn's guesses and score for `password` as given (not cut, not remembered); exported for the tests. */
export function passwordGuesses(password: string): { guesses: number; score: number } {
  estimator ??= newEstimator();
  const { guesses, score } = estimator.check(password);
  return { guesses, score };
}

/** Required, not imported: a node that never creates a user never loads the dictionaries (most of start-up). */
function newEstimator(): ZxcvbnFactory {
  const core = createRequire(import.meta.url)('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = createRequire(import.meta.url)(
    '@zxcvbn-ts/language-common',
  ) as typeof import('@zxcvbn-ts/language-common');
  const english = createRequire(import.meta.url)('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  const factory = new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
    maxLength: SCORED_BYTES,
  });
  // zxcvbn-ts 4's word-sequence, reversed-word and separator matchers are not in the node's Go zxcvbn; the first
  // two re-run every dictionary lookup. @zxcvbn-ts/core is pinned, so its matcher table's shape is known.
  const { matchers } = (factory as unknown as { matching: { matchers: Record<string, object> } }).matching;
  delete matchers.wordSequence;
  delete matchers.dictionaryReverse;
  delete matchers.separator;
  speedUpDictionaryMatching(matchers.dictionary!);
  speedUpL33tMatching(matchers.dictionaryL33t!);
  // Instances, not classes: an estimator made elsewhere (the test's reference) keeps the library's own search.
  speedUpScoring((factory as unknown as { scoring: Parameters<typeof speedUpScoring>[0] }).scoring);
  speedUpScoring((matchers.repeat as { scoring: Parameters<typeof speedUpScoring>[0] }).scoring);
  return factory;
}
