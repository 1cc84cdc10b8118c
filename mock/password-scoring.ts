/**
 * zxcvbn's search for the least guessable reading of a password (@zxcvbn-ts/core 4.2, scoring/index), with the same
 * result at a fraction of the cost. The library's dynamic programme is sound, but for every prefix of the password
 * it builds a brute-force match object per start position and per sequence length (a slice and two object spreads
 * each, about 1,300 x the sequence lengths for 50 characters) and re-estimates every candidate match each time it is
 * considered. Here a brute-force span's guesses come from its length alone (10^length, as the library rates it) and
 * its match object is made only when it becomes the best of its kind; other matches are estimated once per search.
 * The comparisons, their order and the stored state are the library's; test/mock/password.test.ts compares scores
 * with an unpatched estimator.
 */
import { createRequire } from 'node:module';

interface Estimated {
  pattern: string;
  i: number;
  j: number;
  token: string;
  guesses: number;
}

interface Optimal {
  bestMatches: Record<number, Estimated>[];
  guessesProduct: Record<number, number>[];
  totalGuesses: Record<number, number>[];
}

interface Scoring {
  options: unknown;
  password: string;
  excludeAdditive: boolean;
  optimal: Optimal;
  update(match: object, sequenceLength: number): void;
  bruteforceUpdate(end: number): void;
  mostGuessableMatchSequence(password: string, matches: object[], excludeAdditive?: boolean): unknown;
}

type Estimate = (options: unknown, match: object, password: string) => Estimated;
interface Utils {
  factorial(n: number): number;
  log10(n: number): number;
}
interface Constants {
  BRUTEFORCE_CARDINALITY: number;
  MIN_GUESSES_BEFORE_GROWING_SEQUENCE: number;
  MIN_SUBMATCH_GUESSES_SINGLE_CHAR: number;
  MIN_SUBMATCH_GUESSES_MULTI_CHAR: number;
}
/**
 * @zxcvbn-ts/core is pinned and has no exports map: its estimator and helpers are required by path, when scoring is
 * sped up (the dictionaries load on the first createUser, never at start-up).
 */
let estimate: Estimate;
let utils: Utils;
let constants: Constants;

function requireScoringParts(): void {
  estimate = createRequire(import.meta.url)('@zxcvbn-ts/core/dist/scoring/estimate.cjs') as Estimate;
  utils = createRequire(import.meta.url)('@zxcvbn-ts/core/dist/scoring/utils.cjs') as Utils;
  constants = createRequire(import.meta.url)('@zxcvbn-ts/core/dist/data/const.cjs') as Constants;
  BRUTEFORCE_GUESSES = Array.from({ length: 257 }, (_, length) => bruteforceGuesses(length));
}

/** matcher/bruteforce/scoring: the guesses of `length` characters no pattern explains. */
function bruteforceGuesses(length: number): number {
  let guesses = constants.BRUTEFORCE_CARDINALITY ** length;
  if (guesses === Number.POSITIVE_INFINITY) guesses = Number.MAX_VALUE;
  const least =
    length === 1 ? constants.MIN_SUBMATCH_GUESSES_SINGLE_CHAR + 1 : constants.MIN_SUBMATCH_GUESSES_MULTI_CHAR + 1;
  return Math.max(guesses, least);
}

/** By length, as far as the estimator scores (maxLength: the repeat matcher's base tokens are shorter still). */
let BRUTEFORCE_GUESSES: number[] = [];

/**
 * The library's `update` for a match of `guesses` over [i, j]: stores it and returns true if a sequence of
 * `sequenceLength` matches ending with it is better than every sequence of that many or fewer seen so far.
 */
function consider(scoring: Scoring, i: number, j: number, guesses: number, sequenceLength: number): boolean {
  const { optimal } = scoring;
  let product = guesses;
  if (sequenceLength > 1) product *= optimal.guessesProduct[i - 1]![sequenceLength - 1]!;
  let total = utils.factorial(sequenceLength) * product;
  if (!scoring.excludeAdditive) total += constants.MIN_GUESSES_BEFORE_GROWING_SEQUENCE ** (sequenceLength - 1);
  const competing = optimal.totalGuesses[j]!;
  // Its keys are sequence lengths (1, 2, ...): only the ones up to this length compete.
  for (let length = 1; length <= sequenceLength; length++) {
    const other = competing[length];
    if (other !== undefined && other <= total) return false;
  }
  optimal.totalGuesses[j]![sequenceLength] = total;
  optimal.guessesProduct[j]![sequenceLength] = product;
  return true;
}

/** Replaces `scoring`'s (one instance's) update steps with the ones above. */
export function speedUpScoring(scoring: Scoring): void {
  requireScoringParts();
  let estimates = new Map<object, Estimated>();
  const search = scoring.mostGuessableMatchSequence;
  scoring.mostGuessableMatchSequence = function mostGuessableMatchSequence(password, matches, excludeAdditive) {
    // A match's estimate depends on the password searched (its length), so it is kept for one search only.
    estimates = new Map();
    try {
      return search.call(this, password, matches, excludeAdditive);
    } finally {
      estimates = new Map();
    }
  };
  scoring.update = function update(this: Scoring, match: object, sequenceLength: number): void {
    let estimated = estimates.get(match);
    if (!estimated) estimates.set(match, (estimated = estimate(this.options, match, this.password)));
    if (consider(this, estimated.i, estimated.j, estimated.guesses, sequenceLength))
      this.optimal.bestMatches[estimated.j]![sequenceLength] = estimated;
  };
  scoring.bruteforceUpdate = function bruteforceUpdate(this: Scoring, end: number): void {
    bruteforce(this, 0, end, 1);
    for (let i = 1; i <= end; i++) {
      const before = this.optimal.bestMatches[i - 1]!;
      // An optimal sequence never has two brute-force matches side by side (one spanning both is better).
      for (const length in before)
        if (before[length]!.pattern !== 'bruteforce') bruteforce(this, i, end, Number(length) + 1);
    }
  };
}

function bruteforce(scoring: Scoring, i: number, j: number, sequenceLength: number): void {
  const guesses = BRUTEFORCE_GUESSES[j - i + 1] ?? bruteforceGuesses(j - i + 1);
  if (!consider(scoring, i, j, guesses, sequenceLength)) return;
  const token = scoring.password.slice(i, j + 1);
  const match = { pattern: 'bruteforce', token, i, j, guesses, guessesLog10: utils.log10(guesses) };
  scoring.optimal.bestMatches[j]![sequenceLength] = match;
}
