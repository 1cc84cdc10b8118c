/**
 * The layout of generated code written one statement a line (ajv's `code.lines` output and the writers): indentation
 * by the brackets open, and lines wider than the page broken where a reader expects it, because users read these
 * validators when they debug one. The code holds no comments or template strings, and its few regular expression
 * literals (`/~/g` in JSON pointers) no quote or bracket; its strings are single- or double-quoted, and no break ever
 * falls inside one, so the code means what it meant.
 */

/** The widest line the layout aims at (the project's own limit); a longer one is broken where it can be. */
export const WIDTH = 120;
/** The longest piece a long string literal is cut into (less where the page is narrower). */
const PIECE = 72;
/** Bound on re-breaking the pieces of a broken line (each pass makes them shorter). */
const MAX_PASSES = 8;

/** Calls `visit` for each character of `line` outside string literals; a literal is reported once, as its span. */
function scan(
  line: string,
  visit: (ch: string, at: number) => void,
  literal: (start: number, end: number) => void = () => {},
): void {
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"' || ch === "'") {
      const start = i;
      for (i++; i < line.length && line[i] !== ch; i++) if (line[i] === '\\') i++;
      literal(start, i + 1);
    } else visit(ch, i);
  }
}

/**
 * Indents code that has one statement or brace per line. A line that opens brackets opens one level, however many it
 * opens (`f({` indents its fields once); a line that starts by closing brackets of a level is written at that level's
 * outer indentation; the lines after the first of a condition or concatenation broken by layOut, one level in.
 */
export function indent(code: string, unit = '  '): string {
  const indentLine = indenter(unit);
  return code.split('\n').map(indentLine).join('\n');
}

const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const SPACE = 32;
const PLUS = 43;

/**
 * indent's state machine, fed one line at a time: a server's validators are megabytes of code at a few thousand
 * methods, and holding all their lines at once (and calling back per character) made layOut the slowest and most
 * memory-hungry step of a generation.
 */
function indenter(unit: string): (raw: string) => string {
  // How many brackets each open level holds.
  const levels: number[] = [];
  const margins = [''];
  let previous = { line: '', depth: 0 };
  return (raw) => {
    const line = raw.trim();
    if (!line) return '';
    let depth = levels.length;
    let opened = 0;
    let leading = true;
    for (let i = 0; i < line.length; i++) {
      const ch = line.charCodeAt(i);
      if (ch === QUOTE || ch === APOSTROPHE) {
        for (i++; i < line.length && line.charCodeAt(i) !== ch; i++) if (line.charCodeAt(i) === BACKSLASH) i++;
        leading = false;
      } else if (ch === 123 || ch === 91 || ch === 40) {
        opened++;
        leading = false;
      } else if (ch === 125 || ch === 93 || ch === 41) {
        if (opened > 0) opened--;
        else if (levels.length > 0) {
          if (leading) depth = Math.min(depth, levels.length - 1);
          if (--levels[levels.length - 1]! === 0) levels.pop();
        }
      } else if (ch !== SPACE) leading = false;
    }
    if (opened > 0) levels.push(opened);
    // The rest of a broken condition or concatenation sits one level in from where it started.
    const continues =
      previous.line.endsWith('||') ||
      previous.line.endsWith('&&') ||
      (line.charCodeAt(0) === PLUS && line.charCodeAt(1) !== PLUS);
    if (continues) depth = Math.max(depth, previous.depth + 1);
    previous = { line, depth: continues ? previous.depth : depth };
    while (margins.length <= depth) margins.push(margins[margins.length - 1] + unit);
    return margins[depth] + line;
  };
}

/** Each bracket of the line that closes on it, by its index, with the index of its closing bracket (one pass). */
function bracketPairs(line: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  scan(line, (ch, at) => {
    if (ch === '{' || ch === '[' || ch === '(') open.push(at);
    else if (ch === '}' || ch === ']' || ch === ')') {
      const start = open.pop();
      if (start !== undefined) pairs.set(start, at);
    }
  });
  return pairs;
}

/** `text` cut at the commas outside any bracket or string. */
function topLevelItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  scan(text, (ch, at) => {
    if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      items.push(text.slice(from, at).trim());
      from = at + 1;
    }
  });
  items.push(text.slice(from).trim());
  return items;
}

/** The widest object or array literal of the line holding two items or more, one item a line (`key: value`). */
function breakLiteral(line: string): string[] | undefined {
  let best: { open: number; close: number; items: string[] } | undefined;
  // Widest first: the first literal of two items or more is the one to break.
  const literals = [...bracketPairs(line)].filter(([open]) => line[open] === '{' || line[open] === '[');
  for (const [open, close] of literals.sort(([a, b], [c, d]) => d - c - (b - a))) {
    const items = topLevelItems(line.slice(open + 1, close));
    if (items.length > 1 && items.every(Boolean)) {
      best = { open, close, items };
      break;
    }
  }
  if (!best) return undefined;
  const { open, close, items } = best;
  const spaced = items.map((item) => item.replace(/^([A-Za-z_$][\w$]*|"[^"\\]*"):(?! )/, '$1: '));
  return [
    line.slice(0, open + 1),
    ...spaced.map((item, i) => (i < spaced.length - 1 ? `${item},` : item)),
    line.slice(close),
  ];
}

/** A chain of conditions, one a line, each line ending with its `||` or `&&`. */
function breakConditions(line: string): string[] | undefined {
  const cuts: number[] = [];
  scan(line, (ch, at) => {
    if ((ch === '|' || ch === '&') && line[at + 1] === ch && line[at - 1] === ' ' && line[at + 2] === ' ')
      cuts.push(at + 2);
  });
  if (cuts.length === 0) return undefined;
  return [0, ...cuts].map((from, i) => line.slice(from, cuts[i] ?? line.length).trim());
}

/**
 * A concatenation (`a + "/b/" + c`) cut before its `+`s outside brackets, its parts packed into lines of `width`.
 */
function breakConcatenation(line: string, width: number): string[] | undefined {
  const cuts: number[] = [];
  let depth = 0;
  scan(line, (ch, at) => {
    if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if (ch === '}' || ch === ']' || ch === ')') depth--;
    else if (ch === '+' && depth === 0 && line[at + 1] !== '+' && line[at - 1] !== '+' && at > 0) cuts.push(at);
  });
  if (cuts.length === 0) return undefined;
  const parts = [0, ...cuts].map((from, i) => line.slice(from, cuts[i] ?? line.length).trim());
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + part.length + 1 <= width) lines[last] += ` ${part}`;
    else lines.push(part);
  }
  return lines.length > 1 ? lines : undefined;
}

/**
 * The longest string literal of the line as a concatenation of pieces, one a line, cut after a space or a `|` (prose
 * and alternations read on) where there is one. Cuts fall between whole characters and escapes only.
 */
function breakString(line: string, width: number): string[] | undefined {
  // A piece and its quotes, and the `+ ` of the lines after the first, fit the page.
  const most = Math.max(16, Math.min(PIECE, width - 4));
  let longest: [number, number] | undefined;
  scan(
    line,
    () => {},
    (start, end) => {
      // A key cannot be a concatenation.
      const key = /^\s*:/.test(line.slice(end));
      if (!key && end - start > most + 2 && (!longest || end - start > longest[1] - longest[0])) longest = [start, end];
    },
  );
  if (!longest) return undefined;
  const [start, end] = longest;
  const quote = line[start]!;
  const body = line.slice(start + 1, end - 1);
  const pieces: string[] = [];
  let from = 0;
  let lastGood = -1;
  for (let i = 0; i < body.length; ) {
    const step = body[i] === '\\' ? (body[i + 1] === 'u' ? 6 : body[i + 1] === 'x' ? 4 : 2) : 1;
    const room = pieces.length === 0 ? Math.max(16, width - start - 3) : most;
    if (i + step - from > room && i > from) {
      const cut = lastGood > from ? lastGood : i;
      pieces.push(body.slice(from, cut));
      from = cut;
      lastGood = -1;
    }
    i += step;
    if (step === 1 && (body[i - 1] === ' ' || body[i - 1] === '|')) lastGood = i;
  }
  pieces.push(body.slice(from));
  const quoted = pieces.map((piece) => quote + piece + quote);
  return [line.slice(0, start) + quoted[0], ...quoted.slice(1).map((piece) => `+ ${piece}`)].map((text, i, all) =>
    i === all.length - 1 ? text + line.slice(end) : text,
  );
}

function breakLine(line: string, width: number, pass = 0): string[] {
  if (line.length <= width || pass >= MAX_PASSES) return [line];
  const pieces =
    breakLiteral(line) ?? breakConditions(line) ?? breakConcatenation(line, width) ?? breakString(line, width);
  if (!pieces || pieces.length < 2) return [line];
  return pieces.flatMap((piece) => breakLine(piece, width, pass + 1));
}

/**
 * Indents the code and breaks each line wider than `width` once indented: first the widest object or array literal
 * (one item a line), else a chain of `||`/`&&` conditions, else a concatenation (packed parts), else a long string
 * literal (concatenated pieces); then indents the result again, broken lines included. The code is read in chunks of
 * whole lines, so only one chunk's lines are held at a time.
 */
export function layOut(code: string, width = WIDTH, unit = '  '): string {
  const indentLine = indenter(unit);
  const reindentLine = indenter(unit);
  const chunks: string[] = [];
  for (let from = 0; from <= code.length; ) {
    const cut = code.indexOf('\n', from + CHUNK);
    const to = cut < 0 ? code.length : cut;
    const lines = code.slice(from, to).split('\n');
    for (let n = 0; n < lines.length; n++) {
      const line = indentLine(lines[n]!);
      if (line.length <= width) {
        lines[n] = reindentLine(line);
        continue;
      }
      const margin = line.length - line.trimStart().length + unit.length;
      lines[n] = breakLine(line.trim(), Math.max(40, width - margin))
        .map(reindentLine)
        .join('\n');
    }
    chunks.push(lines.join('\n'));
    from = to + 1;
  }
  return chunks.join('\n');
}

/** Characters of code laid out at a time (then up to the end of the line). */
const CHUNK = 64 * 1024;
