/**
 * Templates indent for their readers; blocks that render nothing leave blank, space-filled lines, dropped here: blanks
 * that end a line go, and runs of empty lines become one. Pages come piece by piece (an endpoint page is one piece per
 * method), so each rule runs piecewise (emit/files.ts): the result does not depend on where the pieces break.
 */
import { piecewise } from '../emit/files.ts';

export function* tidyPieces(pieces: Iterable<string>): Generator<string> {
  // Blanks still open at the end end the text, and go. The lookbehind tries each run of blanks from its start only;
  // /[ \t]+$/ alone retries it from every blank, in quadratic time. A stretch ends in a non-blank, so only runs
  // before line breaks match.
  const trimmed = piecewise(
    pieces,
    (c) => c === ' ' || c === '\t',
    (text) => text.replace(/(?<![ \t])[ \t]+$/gm, ''),
  );
  // Three or more line feeds become two.
  const open = yield* piecewise(
    trimmed,
    (c) => c === '\n',
    (text) => text.replace(/\n{3,}/g, '\n\n'),
  );
  yield open.length > 2 ? '\n\n' : open;
}

export function tidy(text: string): string {
  return [...tidyPieces([text])].join('');
}
