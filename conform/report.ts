/** The conformance report for people: one row per method, every FAIL with its pointer and rule. */
import type { CheckResult, ConformReport, MethodResult } from './runner.ts';

const VERSION_SOURCE = {
  flag: 'given with --node-version',
  node: 'reported by info.getNodeVersion',
  assumed: 'assumed: the newest release the spec describes, since the node did not report one',
} as const;

export function formatReport(report: ConformReport): string {
  const lines = [
    `Conformance of ${report.url} with the spec (${report.spec.documents} documents, ${report.spec.methods} methods)`,
    ...(report.nodeVersion
      ? [
          `Node version: ${report.nodeVersion.version} (${VERSION_SOURCE[report.nodeVersion.source]})`,
          `Live params found: ${
            Object.entries(report.discovered)
              .map(([kind, n]) => `${kind} ${n}`)
              .join(', ') || 'none (examples used as given)'
          }`,
        ]
      : ['Profile: plain JSON-RPC 2.0 (the spec does not opt into the avalanche profile); examples used as given']),
    '',
  ];
  const isCoherence = (r: MethodResult) => r.method.startsWith('coherence:');
  lines.push(
    ...table(
      'METHOD',
      report.results.filter((r) => !isCoherence(r)),
    ),
  );
  const coherence = report.results.filter(isCoherence);
  if (coherence.length > 0) lines.push('', ...table('COHERENCE', coherence, 'coherence: '.length));
  const { PASS, FAIL, SKIP } = report.totals;
  lines.push('', `${PASS} PASS, ${FAIL} FAIL, ${SKIP} SKIP`);
  for (const [reason, n] of skipReasons(report.results)) lines.push(`  ${String(n).padStart(4)} skipped: ${reason}`);
  return `${lines.join('\n')}\n`;
}

/** One table, its first column as wide as its own longest name (a long coherence row does not widen the methods'). */
function table(heading: string, results: MethodResult[], cut = 0): string[] {
  const width = Math.max(heading.length, ...results.map((r) => r.method.length - cut)) + 2;
  const lines = [`${heading.padEnd(width)}RESULT  DETAIL`];
  for (const result of results) {
    const [first = '', ...rest] = detailLines(result);
    lines.push(`${result.method.slice(cut).padEnd(width)}${result.status.padEnd(8)}${first}`);
    for (const line of rest) lines.push(`${''.padEnd(width + 8)}${line}`);
  }
  return lines;
}

/** The skipped rows' reasons, counted, most frequent first. */
function skipReasons(results: MethodResult[]): Array<[string, number]> {
  const reasons = new Map<string, number>();
  for (const r of results) if (r.status === 'SKIP') reasons.set(r.reason ?? '', (reasons.get(r.reason ?? '') ?? 0) + 1);
  return [...reasons].sort((a, b) => b[1] - a[1]);
}

function detailLines(result: MethodResult): string[] {
  if (result.status === 'SKIP') return [result.reason ?? ''];
  if (result.method.startsWith('coherence:') && result.status === 'PASS') return ['the answers agree'];
  if (result.status === 'FAIL') {
    return result.checks.flatMap((check) =>
      check.violations.map((v) => `${check.name}: ${v.pointer || '(root)'} [${v.rule}] ${v.message}`),
    );
  }
  return [summarise(result.checks)];
}

function summarise(checks: CheckResult[]): string {
  const examples = checks.filter((c) => c.kind === 'example');
  const results = examples.filter((c) => c.answer === 'result').length;
  const errors = examples.length - results;
  const refused = checks.length - examples.length;
  const parts = [`${results} result${results === 1 ? '' : 's'} valid`];
  if (errors > 0)
    parts.push(
      `${errors} documented error${errors === 1 ? '' : 's'} (${examples
        .filter((c) => c.answer === 'error')
        .map((c) => `"${c.error?.message ?? ''}"`)
        .join(', ')})`,
    );
  parts.push(
    refused > 0 ? `${refused} invalid request${refused === 1 ? '' : 's'} refused` : 'no invalid request derivable',
  );
  return parts.join('; ');
}

/**
 * Why a run checked nothing (every method skipped), or undefined when something was checked: a CI job must not go
 * green on a report that only skipped. The reasons are counted, most frequent first.
 */
export function nothingChecked(report: ConformReport): string | undefined {
  if (report.totals.PASS + report.totals.FAIL > 0) return undefined;
  if (report.results.length === 0) return 'nothing was checked: no method was selected';
  return `nothing was checked: all ${report.results.length} selected methods were skipped (${skipReasons(report.results)
    .map(([reason, n]) => `${n} × ${reason}`)
    .join('; ')})`;
}
