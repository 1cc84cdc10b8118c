/**
 * A method's documented errors, named and matched. The spec writes a message with a variable part as one concrete
 * instance ("couldn't get block with id d7WY...: not found"), so the parts that vary between calls (IDs, addresses,
 * numbers, quoted names, hex, the spec's `my...` stand-in names) are wildcards; everything else must match word for
 * word. The client, the docs and the conformance runner all match and name errors this way.
 */
import type { ErrorModel } from './types.ts';

const VARIABLE_PARTS: Array<[RegExp, string]> = [
  // The node's aliaser ends its message with the alias it did not find, whatever it is ("alias: Q", "alias: my c").
  [/(?<=alias: ).+$/y, '.*'],
  [/"[^"]*"/y, '"[^"]*"'],
  // btcutil's bech32 refusal names the checksums the address's data would have and the one it ends with.
  [
    /\(expected \(bech32=[02-9ac-hj-np-z]{6}, bech32m=[02-9ac-hj-np-z]{6}\), got [02-9ac-hj-np-z]{6}\)/y,
    '\\(expected \\(bech32=[02-9ac-hj-np-z]{6}, bech32m=[02-9ac-hj-np-z]{6}\\), got [02-9ac-hj-np-z]{6}\\)',
  ],
  [/'[^']*'/y, "'[^']*'"],
  [/NodeID-[1-9A-HJ-NP-Za-km-z]+/y, 'NodeID-[1-9A-HJ-NP-Za-km-z]+'],
  [/0x[0-9a-fA-F]*/y, '0x[0-9a-fA-F]*'],
  [/[A-Za-z0-9]+-[a-z0-9]+1[02-9ac-hj-np-z]{6,}/y, '[A-Za-z0-9]+-[a-z0-9]+1[02-9ac-hj-np-z]+'],
  [/[1-9A-HJ-NP-Za-km-z]{20,}/y, '[1-9A-HJ-NP-Za-km-z]+'],
  [/\d+/y, '\\d+'],
  // The spec's stand-in names (`myChain`, `myUsername`, `/ext/myAlias`): any name, even an empty one.
  [/my[A-Z][A-Za-z0-9]*/y, '\\S*'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The message cut into its literal text and its variable parts (each as the pattern that matches any value). */
function pieces(message: string): Array<{ literal: string } | { variable: string }> {
  const out: Array<{ literal: string } | { variable: string }> = [];
  let i = 0;
  let literal = '';
  while (i < message.length) {
    // A variable part starts at a word boundary, so "v1" or "sha256" inside a word stays literal.
    const boundary = i === 0 || !/[A-Za-z0-9]/.test(message[i - 1]!);
    const part = boundary
      ? VARIABLE_PARTS.find(([re]) => {
          re.lastIndex = i;
          return re.test(message);
        })
      : undefined;
    if (part) {
      out.push({ literal }, { variable: part[1] });
      literal = '';
      i = part[0].lastIndex;
    } else {
      literal += message[i];
      i += 1;
    }
  }
  out.push({ literal });
  return out;
}

/** The message as a regular expression whose variable parts match any value of their kind. */
export function messagePattern(message: string): RegExp {
  const source = pieces(message)
    .map((piece) => ('literal' in piece ? escapeRegExp(piece.literal) : piece.variable))
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * A name never ends on a word that only leads into what follows it ("higher than 2^256-1" once the number is left
 * out): such a word is left out too.
 */
const LEAD_IN = /^(?:a|an|and|at|be|but|by|due|for|from|in|into|is|of|on|or|than|the|to|with)$/i;

/** Where a message's first sentence ends: a full stop, `;`, or ` / ` between alternatives ("too low / below ..."). */
const SENTENCE_END = /[.;!?](?:\s|$)|\s\/\s/;

/**
 * A bound for a prose message (a foreign spec's): its name stops after this many words. Every name the project's spec
 * makes from a message stays under it (test/generator/error-names.test.ts); a longer message gets an `x-error-name`.
 */
export const MAX_WORDS = 12;

/** The words a message's name is made of: its first sentence, without the variable parts ("L1" keeps its digit). */
export function nameWords(message: string): string[] {
  // Apostrophes inside words first, so "couldn't" stays one word and does not open a quoted variable part.
  const sentence = message.replace(/(\w)'(\w)/g, '$1$2').split(SENTENCE_END)[0]!;
  return pieces(sentence)
    .map((piece) => ('literal' in piece ? piece.literal : ' '))
    .join('')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/**
 * The error's name where the spec gives none in `x-error-name`: the key of `components.errors` it is a `$ref` to
 * (`KeystoreUserAlreadyExists`), or, for an error written in place, every word of its message's first sentence
 * without the variable parts, in PascalCase (`couldn't get block at height 5: not found` is
 * `CouldntGetBlockAtHeightNotFound`): the last words are often what tells two errors apart ("less than block base
 * fee"), so none is cut below MAX_WORDS.
 */
export function errorName(ref: string | undefined, message: string): string {
  const key = ref?.match(/\/errors\/([A-Za-z_$][\w$]*)$/)?.[1];
  if (key) return key;
  const words = nameWords(message).slice(0, MAX_WORDS);
  while (words.length > 1 && LEAD_IN.test(words.at(-1)!)) words.pop();
  const name = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Error${name}`;
}

/**
 * Names unique within one method, whatever their case (`ExecutionReverted` from "execution reverted" and "Execution
 * reverted"): a second error of the same name gets `2`, and so on.
 */
export function uniqueNames(errors: Array<Omit<ErrorModel, 'name'> & { name: string }>): ErrorModel[] {
  const seen = new Map<string, number>();
  return errors.map((error) => {
    const key = error.name.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    return count === 1 ? error : { ...error, name: `${error.name}${count}` };
  });
}
