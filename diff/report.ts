/** The diff's reports: text for people (grouped by method, breaking first), JSON for tools. */
import type { Change } from './compare.ts';
import type { Level } from './verdicts.ts';

const RANK: Record<Level, number> = { breaking: 0, 'possibly-breaking': 1, compatible: 2 };
const worst = (c: Change) => Math.min(RANK[c.clients], RANK[c.implementers]);

function summary(changes: Change[]) {
  const count = (audience: 'clients' | 'implementers') =>
    Object.fromEntries(
      (['breaking', 'possibly-breaking', 'compatible'] as const).map((level) => [
        level,
        changes.filter((c) => c[audience] === level).length,
      ]),
    );
  return { changes: changes.length, clients: count('clients'), implementers: count('implementers') };
}

export function jsonReport(from: string, to: string, changes: Change[]): string {
  return `${JSON.stringify({ from, to, summary: summary(changes), changes }, null, 2)}\n`;
}

export function textReport(from: string, to: string, changes: Change[]): string {
  const lines = [`Spec diff: ${from} -> ${to}`];
  if (changes.length === 0) return `${lines[0]}\nNo changes.\n`;
  const byMethod = new Map<string, Change[]>();
  for (const change of [...changes].sort((a, b) => worst(a) - worst(b)))
    byMethod.set(change.method, [...(byMethod.get(change.method) ?? []), change]);
  const methods = [...byMethod.keys()].sort(
    (a, b) => worst(byMethod.get(a)![0]!) - worst(byMethod.get(b)![0]!) || (a < b ? -1 : 1),
  );
  for (const method of methods) {
    lines.push('', `${method} (${byMethod.get(method)![0]!.endpoint})`);
    for (const c of byMethod.get(method)!)
      lines.push(
        `  clients: ${c.clients.padEnd(17)} implementers: ${c.implementers.padEnd(17)} ${c.text}`,
        `      ${c.rule} at ${c.pointer}`,
      );
  }
  const s = summary(changes);
  const line = (counts: Record<string, number>) =>
    `${counts.breaking} breaking, ${counts['possibly-breaking']} possibly breaking, ${counts.compatible} compatible`;
  lines.push(
    '',
    `${s.changes} change${s.changes === 1 ? '' : 's'}. Clients: ${line(s.clients)}. Implementers: ${line(s.implementers)}.`,
  );
  return `${lines.join('\n')}\n`;
}
