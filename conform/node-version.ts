/**
 * Which release the node is, and what it means when the node does not serve a method: the node's answers are judged
 * as that release has its methods.
 */
import type { CallCase } from './cases.ts';
import { callRpc } from './rpc.ts';
import type { ConformReport, MethodResult } from './runner.ts';
import { parseNodeVersion } from './spec.ts';

/** Nothing answers at the base URL: no release to ask, no method to check. */
export class NodeUnreachableError extends Error {}

/**
 * A method the node does not have. When the node's release is known and the spec says that release serves the
 * method, that is a disagreement; when the release was only assumed, the node may simply be older.
 */
export function unservedMethod(
  base: Pick<MethodResult, 'method' | 'endpoint'>,
  message: string,
  call: CallCase,
  version: ConformReport['nodeVersion'],
): MethodResult {
  if (version?.source === 'assumed') {
    return {
      ...base,
      status: 'SKIP',
      reason: `not served by this node ("${message}"); its release is unknown (--node-version tells it)`,
      checks: [],
    };
  }
  const violation = {
    pointer: '/error',
    rule: 'served',
    message: version
      ? `${version.version} should serve ${base.method}, but the node answers "${message}"`
      : `the spec has ${base.method}, but the server answers "${message}"`,
  };
  return {
    ...base,
    status: 'FAIL',
    checks: [{ name: call.name, kind: call.kind, params: call.params, answer: 'error', violations: [violation] }],
  };
}

/**
 * The spec has no method that reports the node's release, but every AvalancheGo serves `info.getNodeVersion` on
 * `/ext/info`; its answer decides which methods to expect. Without one, the newest release the spec describes.
 */
export async function resolveNodeVersion(
  baseUrl: string,
  flag: string | undefined,
  newest: string,
  timeoutMs: number,
): Promise<ConformReport['nodeVersion'] & { answered: boolean }> {
  const answer = await callRpc({
    url: `${baseUrl}/ext/info`,
    method: 'info.getNodeVersion',
    params: {},
    id: 0,
    timeoutMs,
  });
  if (answer.kind === 'unreachable')
    throw new NodeUnreachableError(`cannot reach the node at ${baseUrl}: ${answer.error}`);
  const answered = answer.status !== 404;
  if (flag) return { version: flag, source: 'flag', answered };
  const reported =
    answer.kind === 'json' ? (answer.body as { result?: { version?: unknown } } | null)?.result?.version : undefined;
  const version = typeof reported === 'string' ? parseNodeVersion(reported) : undefined;
  return version ? { version, source: 'node', answered } : { version: newest, source: 'assumed', answered };
}
