/**
 * Templates indent for their readers; blocks that render nothing leave blank, space-filled lines, dropped here: blanks
 * that end a line go, and runs of empty lines become one.
 */
export function tidy(text: string): string {
  // The lookbehind tries each run of blanks from its start only; /[ \t]+$/ alone retries it from every blank, in
  // quadratic time.
  return text.replace(/(?<![ \t])[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');
}
