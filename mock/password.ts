/**
 * The node's password strength rule (utils/password at v1.12.1): the zxcvbn score of the password. The node uses a Go
 * port of zxcvbn with its English dictionaries; the mock uses @zxcvbn-ts with the common and English dictionaries,
 * which scores the same passwords the same way in all but borderline cases. Loaded on first use (its dictionaries
 * take a few hundred milliseconds).
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

let estimator: ZxcvbnFactory | undefined;

/** 0 (too guessable) to 4 (very unguessable). */
export function passwordScore(password: string): number {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator.check(password).score;
}
