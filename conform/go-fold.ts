/**
 * Keys as the node's JSON decoding matches them. Go's encoding/json finds a struct field for an object key by its exact
 * name, else by `foldName(key) == foldName(field)`, which its source documents as identical to `bytes.EqualFold`: rune
 * by rune, each rune replaced by the smallest rune of its `unicode.SimpleFold` orbit, the classes of Unicode's simple
 * case folding (CaseFolding.txt, statuses C and S). So `paſſword` (U+017F long s) and `Kelvin` spelled with U+212A
 * KELVIN SIGN name the fields `password` and `kelvin`, while `paßword` (ß folds to ss only in full folding) and
 * `ıd` (dotless i: Turkic folding, status T) name nothing.
 *
 * A regular expression with the `i` and `u` flags compares characters by exactly that simple case folding (ECMA-262
 * Canonicalize), one code point against one code point, so it decides the same equality without a table of our own.
 * JSON escapes are undone before keys are compared, in Go as in JSON.parse.
 */
export type KeyMatcher = (key: string) => boolean;

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;

/** Whether a key names the field `name` for Go's decoder. */
export function goFoldMatcher(name: string): KeyMatcher {
  const pattern = new RegExp(`^${name.replace(SYNTAX, '\\$&')}$`, 'iu');
  // One key code point per name code point, each at most two UTF-16 units: longer keys cannot match.
  const longest = name.length * 2;
  return (key) => key.length <= longest && pattern.test(key);
}
