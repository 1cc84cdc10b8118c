/**
 * The Health API of the mock: the reports of `health.health`, `health.readiness` and `health.liveness`, over JSON-RPC
 * and over plain GET as AvalancheGo's `api/health/handler.go` serves them (200 when healthy, 503 when not).
 */
import type { RpcReply } from '../generated/server/dist/index.js';
import type { HealthKind, HealthReport } from './world/types.ts';

export type { HealthKind, HealthReport };

/**
 * The GET paths of each report (the node's `NewGetHandler` routes, which answer any HTTP method but `/ext/health`'s
 * POST).
 */
const GET_PATHS: Record<string, HealthKind> = {
  '/ext/health': 'health',
  '/ext/health/health': 'health',
  '/ext/health/readiness': 'readiness',
  '/ext/health/liveness': 'liveness',
};

/** Tag of the Primary Network's chains (their subnet ID) and the tag every filter includes. */
const PRIMARY_NETWORK_TAG = '11111111111111111111111111111111LpoYY';
const UNFILTERED_TAGS = new Set([PRIMARY_NETWORK_TAG, 'all']);

export class HealthState {
  /**
   * @param reports each report as the node gives it now (read from the simulated network on every call)
   * @param isChain whether a check is a chain's (named by its alias, tagged with its subnet): a tag filter naming
   *   another subnet leaves those out and keeps the node-wide (`application`) checks, as the node's worker does
   */
  private readonly reports: (kind: HealthKind) => HealthReport;
  private readonly isChain: (name: string) => boolean;
  constructor(reports: (kind: HealthKind) => HealthReport, isChain: (name: string) => boolean) {
    this.reports = reports;
    this.isChain = isChain;
  }

  report(kind: HealthKind, tags: readonly string[] = []): HealthReport {
    const full = this.reports(kind);
    if (tags.length === 0 || tags.some((tag) => UNFILTERED_TAGS.has(tag))) return full;
    const checks = Object.fromEntries(Object.entries(full.checks).filter(([name]) => !this.isChain(name)));
    const healthy = Object.values(checks).every((check) => (check as { error?: string }).error === undefined);
    return { checks, healthy };
  }

  /** The GET form's reply, or undefined when the request is not one (POST to `/ext/health` is JSON-RPC). */
  getReply(method: string, url: string): RpcReply | undefined {
    const query = url.indexOf('?');
    const kind = GET_PATHS[query < 0 ? url : url.slice(0, query)];
    if (!kind || (method !== 'GET' && kind === 'health' && !url.startsWith('/ext/health/'))) return undefined;
    const tags = query < 0 ? [] : new URLSearchParams(url.slice(query + 1)).getAll('tag');
    return healthGetReply(this.report(kind, tags));
  }
}

/**
 * As the node's GET handler writes it: Go's json.Encoder (HTML characters escaped, a final newline), 503 when
 * unhealthy.
 */
export function healthGetReply(report: HealthReport): RpcReply {
  const json = JSON.stringify({ checks: report.checks, healthy: report.healthy });
  const goEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const body = `${json.replace(/[<>&\u2028\u2029]/g, goEscape)}\n`;
  return { status: report.healthy ? 200 : 503, headers: { 'Content-Type': 'application/json' }, body };
}
