/**
 * The lines of `text` wider than the 120 columns code keeps to (counted in characters, not bytes). With `quotedCode`,
 * not those inside a ``` fence: code a spec's description quotes (Lotus' Go signatures) stays as written, since
 * rewrapped it would change. Nor a comment line that is one word holding a URL (`[text](https://...)`): no line break
 * can go inside it without breaking the link, so it stays whole, as formatters leave it.
 */
export function wideLines(text: string, { quotedCode = false } = {}): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (quotedCode && /^\s*\*?\s*```/.test(line)) fenced = !fenced;
    return !fenced && [...line].length > 120 && !/^\s*\*? ?\S*:\/\/\S*$/.test(line);
  });
}
