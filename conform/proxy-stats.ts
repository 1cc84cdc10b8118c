/** What the proxy saw, per method: calls and violations, and the summary printed when it stops. */
import type { ProxyViolation } from './inspect.ts';

export interface MethodStats {
  calls: number;
  violations: number;
  /** False for methods the spec does not describe (they pass through unjudged). */
  specified: boolean;
}

export class ProxyStats {
  readonly methods = new Map<string, MethodStats>();
  upstreamFailures = 0;

  count(method: string, specified: boolean, violations: number): void {
    const entry = this.methods.get(method) ?? { calls: 0, violations: 0, specified };
    entry.calls += 1;
    entry.violations += violations;
    this.methods.set(method, entry);
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
      methods: Object.fromEntries([...this.methods].sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  }
}

export function formatViolation(v: ProxyViolation): string {
  return `#${v.seq} ${v.method} ${v.direction} ${v.pointer || '(root)'}: ${v.message}`;
}

export function formatSummary(stats: ProxyStats): string {
  const rows = [...stats.methods].sort(([a], [b]) => (a < b ? -1 : 1));
  const width = Math.max('METHOD'.length, ...rows.map(([name]) => name.length)) + 2;
  const lines = [
    `Proxy summary: ${stats.calls} call${stats.calls === 1 ? '' : 's'}, ${stats.violations} ` +
      `violation${stats.violations === 1 ? '' : 's'}` +
      (stats.upstreamFailures > 0
        ? `, ${stats.upstreamFailures} answered 502/504 (upstream unreachable or silent)`
        : ''),
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
  return lines.join('\n') + '\n';
}
