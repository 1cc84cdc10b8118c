/**
 * What JSON.parse takes but cannot keep: a number too large for a double (`1e400` parses as Infinity, which is
 * written back as `null`) and a key written twice in one object (JSON.parse keeps the last, other readers the first).
 * One pass over text JSON.parse has already accepted, tracking the JSON pointer of each value, finds both.
 */
import { type SpecProblem, pointerOf } from '../common/problems.ts';

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

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
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const token = text.slice(i, end + 1);
      const keys = open.at(-1);
      if (expectKey && keys instanceof Set) {
        const key = JSON.parse(token) as string;
        path[path.length - 1] = key;
        if (keys.has(key))
          problems.push({ file, pointer: pointerOf(path), message: `key "${key}" is written twice in this object` });
        keys.add(key);
        expectKey = false;
      }
      i += token.length;
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
