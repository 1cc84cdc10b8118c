/**
 * Templates indent for their readers; blocks that render nothing leave blank, space-filled lines, dropped here: blanks
 * that end a line go, and runs of empty lines become one. Pages come piece by piece (an endpoint page is one piece per
 * method), so each rule carries what a piece's end leaves open into the next piece; the result does not depend on
 * where the pieces break, and each piece costs time linear in its length.
 */
export function* tidyPieces(pieces: Iterable<string>): Generator<string> {
  yield* collapseEmptyLines(dropTrailingBlanks(pieces));
}

export function tidy(text: string): string {
  return [...tidyPieces([text])].join('');
}

/** Spaces and tabs before a line break (any of JavaScript's) or the end of the text. */
function* dropTrailingBlanks(pieces: Iterable<string>): Generator<string> {
  // The blanks that end what came so far: kept only if something other than a line break follows.
  let open = '';
  for (const piece of pieces) {
    const end = runStart(piece, (c) => c === ' ' || c === '\t');
    if (end === 0) {
      open += piece;
      continue;
    }
    // The lookbehind tries each run of blanks from its start only; /[ \t]+$/ alone retries it from every blank, in
    // quadratic time. The text ends in a non-blank here, so only runs before line breaks match.
    yield (open + piece.slice(0, end)).replace(/(?<![ \t])[ \t]+$/gm, '');
    open = piece.slice(end);
  }
}

/** Three or more line feeds become two. */
function* collapseEmptyLines(pieces: Iterable<string>): Generator<string> {
  let open = '';
  for (const piece of pieces) {
    const end = runStart(piece, (c) => c === '\n');
    if (end === 0) {
      open += piece;
      continue;
    }
    yield (open + piece.slice(0, end)).replace(/\n{3,}/g, '\n\n');
    open = piece.slice(end);
  }
  yield open.length > 2 ? '\n\n' : open;
}

/** Where the run of characters that ends `text` and that all pass `test` starts (0: the whole text is one). */
function runStart(text: string, test: (c: string) => boolean): number {
  let end = text.length;
  while (end > 0 && test(text[end - 1]!)) end--;
  return end;
}
