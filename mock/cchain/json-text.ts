/**
 * JSON.stringify for a value JSON.parse gave, without recursion: Go's decoder takes 10,000 levels of nesting, more
 * than V8's JSON.stringify has stack for, and a call's params are passed on to the engine as JSON text.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  // Each entry is a value still to write, or the text that closes or separates what came before.
  const pending: Array<{ value: unknown } | string> = [{ value }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const item = next.value;
    if (Array.isArray(item)) {
      out.push('[');
      pending.push(']');
      for (let i = item.length - 1; i >= 0; i--) {
        pending.push({ value: item[i] });
        if (i > 0) pending.push(',');
      }
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      out.push('{');
      pending.push('}');
      for (let i = entries.length - 1; i >= 0; i--) {
        pending.push({ value: entries[i]![1] });
        pending.push(`${i > 0 ? ',' : ''}${JSON.stringify(entries[i]![0])}:`);
      }
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}
