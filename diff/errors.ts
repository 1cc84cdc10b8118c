/**
 * A method's documented errors, paired by code and message, then by name (a shared error's key), then by message.
 * Clients tell the node's errors apart by code and message text (nearly all are -32000), so a changed code or text
 * breaks them; a new error is one they may not handle. An implementer still sending a removed or changed error fails
 * conformance; one not yet sending a new error does not (the spec lists what a node may answer).
 */
import { messagePattern } from '../generators/model/errors.ts';
import type { ErrorModel, MethodModel } from '../generators/model/types.ts';
import { B, C, P, type Verdict } from './verdicts.ts';

type ErrorChange = { rule: string; side: 'old' | 'new'; index: number; text: string; verdict: Verdict };

export function compareErrors(a: MethodModel, b: MethodModel): ErrorChange[] {
  const out: ErrorChange[] = [];
  const note = (rule: string, side: 'old' | 'new', index: number, text: string, verdict: Verdict) =>
    out.push({ rule, side, index, text, verdict });
  const freeB = new Set(b.errors.map((_, j) => j));
  const same = (x: ErrorModel, y: ErrorModel) =>
    x.code === y.code &&
    (x.message === y.message || messagePattern(x.message).test(y.message) || messagePattern(y.message).test(x.message));
  const take = (test: (y: ErrorModel) => boolean) => {
    const j = [...freeB].find((k) => test(b.errors[k]!));
    if (j !== undefined) freeB.delete(j);
    return j;
  };
  const quote = (e: ErrorModel) => `${e.code} "${e.message}"`;
  const unpaired: number[] = [];
  a.errors.forEach((error, i) => {
    if (take((y) => same(error, y)) !== undefined) return;
    const j = take((y) => y.name === error.name) ?? take((y) => y.message === error.message);
    if (j === undefined) return unpaired.push(i);
    const other = b.errors[j]!;
    if (other.code !== error.code)
      note('error-code-changed', 'new', j, `error ${quote(error)} now has code ${other.code}`, [B, B]);
    if (!same({ ...error, code: other.code }, other))
      note('error-message-changed', 'new', j, `error ${quote(error)} now reads "${other.message}"`, [B, B]);
  });
  for (const i of unpaired)
    note('error-removed', 'old', i, `error ${quote(a.errors[i]!)} no longer documented`, [C, B]);
  for (const j of freeB) note('error-added', 'new', j, `error ${quote(b.errors[j]!)} added`, [P, C]);
  return out;
}
