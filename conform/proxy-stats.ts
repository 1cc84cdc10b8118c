/**
 * What the proxy saw, per method: calls and violations, and the summary printed when it stops. A caller chooses the
 * method names, so what is kept of them is bounded: the spec's methods each have a row, names outside the spec get
 * one (cut to NAME_LIMIT characters) up to UNKNOWN_ROWS of them, and every later one is counted in one shared row.
 */
import type { ProxyViolation } from './inspect.ts';

export interface MethodStats {
  calls: number;
  violations: number;
  /** False for methods the spec does not describe (they pass through unjudged). */
  specified: boolean;
}

/** Longest method name kept or printed; a longer one is cut and marked with `…`. */
export const NAME_LIMIT = 100;
/** Rows for names outside the spec; later names share OTHER_METHODS. */
export const UNKNOWN_ROWS = 64;
export const OTHER_METHODS = '(other methods not in the spec)';

/**
 * A caller's text made fit for a one-line log: cut to `limit` characters, control characters, backslashes, line and
 * paragraph separators and bidirectional controls written as escapes, so a name can neither start a line of its own
 * (forging a `violation …` line) nor reorder what a terminal shows.
 */
export function printable(text: string, limit = NAME_LIMIT): string {
  const chars = Array.from(text.length > limit * 2 ? text.slice(0, limit * 2) : text);
  const cut = chars.length > limit ? `${chars.slice(0, limit).join('')}…` : chars.join('');
  // With the u flag, the surrogate range matches only lone halves: a valid pair (an emoji) is one character.
  return cut.replace(
    /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu,
    (c) => (c === '\\' ? '\\\\' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

export class ProxyStats {
  readonly methods = new Map<string, MethodStats>();
  upstreamFailures = 0;
  /** Callers answered 503 for want of connections (./proxy-intake.ts). */
  refused = 0;
  /** Upgraded (WebSocket) connections relayed, unchecked (./proxy-upgrade.ts). */
  websockets = 0;
  private unknownRows = 0;

  /**
   * Counts one exchange under `label`: a method's name, or the proxy's own label such as `(not JSON)` (then
   * `callersName` is false). Returns the row's name when this call opened a row for a method outside the spec (the
   * proxy logs those once), else undefined.
   */
  count(label: string, specified: boolean, violations: number, callersName = !specified): string | undefined {
    let name = callersName ? printable(label) : label;
    let opened: string | undefined;
    if (callersName && !this.methods.has(name)) {
      if (this.unknownRows < UNKNOWN_ROWS) this.unknownRows += 1;
      else name = OTHER_METHODS;
      if (!this.methods.has(name)) opened = name;
    }
    const entry = this.methods.get(name) ?? { calls: 0, violations: 0, specified };
    entry.calls += 1;
    entry.violations += violations;
    this.methods.set(name, entry);
    return opened;
  }

  get calls(): number {
    return [...this.methods.values()].reduce((sum, m) => sum + m.calls, 0);
  }

  get violations(): number {
    return [...this.methods.values()].reduce((sum, m) => sum + m.violations, 0);
  }

  toJSON() {
    return {
      calls: this.calls,
      violations: this.violations,
      upstreamFailures: this.upstreamFailures,
      refused: this.refused,
      methods: Object.fromEntries([...this.methods].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }
}

export function formatViolation(v: ProxyViolation): string {
  return `#${v.seq} ${printable(v.method)} ${v.direction} ${printable(v.pointer, 200) || '(root)'}: ${printable(v.message, 500)}`;
}

export function formatSummary(stats: ProxyStats): string {
  const rows = [...stats.methods].sort(([a], [b]) => (a < b ? -1 : 1));
  const width = Math.max('METHOD'.length, ...rows.map(([name]) => name.length)) + 2;
  const lines = [
    `Proxy summary: ${stats.calls} call${stats.calls === 1 ? '' : 's'}, ${stats.violations} ` +
      `violation${stats.violations === 1 ? '' : 's'}` +
      (stats.upstreamFailures > 0
        ? `, ${stats.upstreamFailures} answered 502/504 (upstream unreachable or silent)`
        : '') +
      (stats.refused > 0 ? `, ${stats.refused} connections refused (503: --max-connections reached)` : '') +
      (stats.websockets > 0 ? `, ${stats.websockets} WebSocket connections relayed unchecked` : ''),
  ];
  if (rows.length > 0) {
    lines.push(`${'METHOD'.padEnd(width)}${'CALLS'.padStart(7)}${'VIOLATIONS'.padStart(12)}`);
    for (const [name, m] of rows)
      lines.push(
        name.padEnd(width) +
          String(m.calls).padStart(7) +
          (m.specified ? String(m.violations) : 'not in spec').padStart(12),
      );
  }
  return `${lines.join('\n')}\n`;
}
