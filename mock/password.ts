/**
 * The node's password strength rule (utils/password/password.go, v1.12.1): the zxcvbn score of the password's first
 * 50 bytes (`password[:maxCheckedPassLen]`, a byte slice in Go). The node uses a Go port of zxcvbn
 * (nbutton23/zxcvbn-go) with its English dictionaries; the mock uses @zxcvbn-ts/core as published, with the common
 * and English dictionaries, which scores the same passwords the same way in all but borderline cases. Loaded on
 * first use (its dictionaries take a few hundred milliseconds). Two of the library's own options bound a call's
 * cost: the 50 bytes, and the l33t substitutions tried (a password of symbols took half a second with the default).
 * Verdicts are remembered by the password's hash (never the password), boundedly.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

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
    estimator ??= newEstimator();
    score = estimator.check(scored).score;
    if (verdicts.size >= REMEMBERED) verdicts.delete(verdicts.keys().next().value!);
    verdicts.set(key, score);
  }
  return score;
}

/** Required, not imported: a node that never creates a user never loads the dictionaries (most of start-up). */
function newEstimator(): ZxcvbnFactory {
  const core = createRequire(import.meta.url)('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = createRequire(import.meta.url)(
    '@zxcvbn-ts/language-common',
  ) as typeof import('@zxcvbn-ts/language-common');
  const english = createRequire(import.meta.url)('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
  return new core.ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    l33tMaxSubstitutions: L33T_SUBSTITUTIONS,
    maxLength: SCORED_BYTES,
  });
}
