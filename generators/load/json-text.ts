/**
 * What JSON.parse takes but cannot keep: a number too large for a double (`1e400` parses as Infinity, which is
 * written back as `null`) and a key written twice in one object (JSON.parse keeps the last, other readers the first).
 * One pass over text JSON.parse has already accepted, tracking the JSON pointer of each value, finds both.
 */
import { type SpecProblem, pointerOf } from '../common/problems.ts';

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Where the string starting at `start` (its opening quote) ends: the index after its closing quote. */
function stringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text[end - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return end + 1;
    end = text.indexOf('"', end + 1);
  }
}

/** Every number beyond a double and every repeated key in `text` (valid JSON), as problems of `file`. */
export function lossyValues(text: string, file: string): SpecProblem[] {
  const problems: SpecProblem[] = [];
  // One entry per open object (the keys it has) or array; `path` holds the key or index of the value inside each.
  const open: Array<Set<string> | 'array'> = [];
  const path: Array<string | number> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; ) {
    const char = text[i]!;
    if (char === '"') {
      const end = stringEnd(text, i);
      const keys = open.at(-1);
      if (expectKey && keys instanceof Set) {
        const key = JSON.parse(text.slice(i, end)) as string;
        path[path.length - 1] = key;
        if (keys.has(key))
          problems.push({ file, pointer: pointerOf(path), message: `key "${key}" is written twice in this object` });
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)![0];
      if (!Number.isFinite(Number(token)))
        problems.push({
          file,
          pointer: pointerOf(path),
          message: `the number ${token} is beyond what a double holds (about 1.8e308): no JSON reader keeps it`,
        });
      i += token.length;
    } else {
      if (char === '{' || char === '[') {
        open.push(char === '{' ? new Set() : 'array');
        path.push(0);
        expectKey = char === '{';
      } else if (char === '}' || char === ']') {
        open.pop();
        path.pop();
      } else if (char === ',') {
        if (open.at(-1) === 'array') path[path.length - 1] = (path.at(-1) as number) + 1;
        else expectKey = true;
      }
      i++;
    }
  }
  return problems;
}
