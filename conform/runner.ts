/**
 * `npm run conform`: calls every safe method of the spec on a live node and reports, method by method, PASS, FAIL
 * (JSON pointer + violated rule) or SKIP (why). Calls run one at a time, in spec order, so a node is never flooded
 * and a report reads the same twice. A spec that does not opt into the avalanche profile is plain JSON-RPC 2.0:
 * every method is called at the URL as given, by-position methods get arrays, and the node-only steps (its release,
 * live params, cross-method coherence) do not run.
 */
import type { Json, SpecMethod } from '../generators/model/types.ts';
import { type CallCase, type CaseKind, exampleCases, invalidCases } from './cases.ts';
import { checkCoherence } from './coherence.ts';
import { Facts, discover, substituteParams } from './discovery.ts';
import { judge } from './judge.ts';
import { Redactor } from './redact.ts';
import { type RpcAnswer, callRpc } from './rpc.ts';
import { resolveNodeVersion, unservedMethod } from './node-version.ts';
import { endpointPath, isSafeRead, wireProfile } from './spec.ts';
import { newestSpecVersion, notServedReason } from '../generators/model/versions.ts';
import type { SpecValidator, Violation } from './validate.ts';

type Status = 'PASS' | 'FAIL' | 'SKIP';

export interface CheckResult {
  name: string;
  kind: CaseKind;
  params: Record<string, Json>;
  answer: 'result' | 'error';
  error?: { code: number; message: string };
  violations: Violation[];
}

export interface MethodResult {
  method: string;
  endpoint: string;
  status: Status;
  reason?: string;
  checks: CheckResult[];
}

export interface ConformReport {
  url: string;
  /** The node's release the answers were judged as; absent for a plain JSON-RPC 2.0 spec, which has no releases. */
  nodeVersion?: { version: string; source: 'flag' | 'node' | 'assumed' };
  spec: { documents: number; methods: number };
  discovered: Record<string, number>;
  results: MethodResult[];
  totals: Record<Status, number>;
}

export interface ConformOptions {
  url: string;
  validator: SpecValidator;
  methods?: RegExp;
  includeWrites?: boolean;
  nodeVersion?: string;
  timeoutMs?: number;
  /** Values for endpoint path variables, e.g. `{ blockchainID: 'X' }`. */
  pathVariables?: Record<string, string>;
  /** Run the cross-method coherence rows (./coherence.ts); default: when no `methods` filter is given. */
  coherence?: boolean;
}

/** Every call got HTTP 404: the base URL points somewhere that is not a node (a path typo, another service). */
export class NotANodeError extends Error {}

export async function runConformance(options: ConformOptions): Promise<ConformReport> {
  let { validator } = options;
  const model = validator.model;
  const avalanche = model.profile === 'avalanche';
  // A node's endpoints hang below its base URL; a plain JSON-RPC server answers at the URL it is given.
  const baseUrl = avalanche ? options.url.replace(/\/+$/, '') : options.url;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let nextId = 0;
  // Paths that answered 404, and whether any call got something else: all 404s means the URL is not a node.
  const notFound = new Set<string>();
  let answered = false;
  const send = (entry: SpecMethod, params: Record<string, Json>) => {
    const id = ++nextId;
    const wire = wireParams(entry, params);
    const path = avalanche ? endpointPath(entry.endpoint, options.pathVariables) : '';
    const answer = callRpc({
      url: baseUrl + path,
      method: entry.method.name,
      params: wire === GAP ? params : wire,
      id,
      timeoutMs,
    }).then((a) => {
      if (a.kind === 'unreachable') return a;
      if (a.status === 404) notFound.add(path);
      else answered = true;
      return a;
    });
    return { id, answer };
  };

  const nodeVersion = avalanche
    ? await resolveNodeVersion(baseUrl, options.nodeVersion, newestSpecVersion(model), timeoutMs)
    : undefined;
  if (nodeVersion?.answered) answered = true;
  // Answers are judged as the node's release has its methods: its params, fields, result shapes and enum values.
  if (nodeVersion) validator = validator.atRelease(nodeVersion.version);
  const unservedAt = (entry: SpecMethod) =>
    nodeVersion ? notServedReason(entry.method, nodeVersion.version) : undefined;
  const facts = new Facts();
  const usable = (entry: SpecMethod) => isSafeRead(entry) && !entry.endpoint.mockOnly && !unservedAt(entry);
  if (avalanche)
    await discover(async (name, params) => {
      const entry = validator.methods.get(name);
      if (!entry) throw new Error(`discovery calls ${name}, which the spec does not have`);
      if (!usable(entry)) return undefined;
      const answer = await send(entry, params).answer;
      const result = resultOf(answer);
      if (result !== undefined) facts.harvest(entry.method, result);
      return result;
    }, facts);

  const results: MethodResult[] = [];
  for (const entry of validator.methods.values()) {
    if (options.methods && !options.methods.test(entry.method.name)) continue;
    results.push(await checkMethod(entry));
  }
  if (avalanche && nodeVersion && (options.coherence ?? !options.methods)) {
    const pathOf = (name: string) => {
      const endpoint = model.endpoints.find((e) => e.name === name);
      return endpoint ? endpointPath(endpoint, options.pathVariables) : '';
    };
    const caller = async (path: string, method: string, params: Record<string, unknown>) => {
      const spec = validator.methods.get(method);
      const unserved = spec && unservedAt(spec);
      if (unserved) return { unserved };
      const answer = await callRpc({ url: baseUrl + path, method, params, id: ++nextId, timeoutMs });
      const body =
        answer.kind === 'json'
          ? (answer.body as { result?: unknown; error?: { code: number; message: string } })
          : undefined;
      if (!body)
        return { error: { code: 0, message: answer.kind === 'unreachable' ? answer.error : `HTTP ${answer.status}` } };
      return body.error ? { error: body.error } : { result: body.result };
    };
    results.push(...(await checkCoherence(caller, { X: pathOf('x-chain'), P: pathOf('p-chain') })));
  }
  if (!answered && notFound.size > 0) {
    throw new NotANodeError(
      avalanche
        ? `${baseUrl} is not an AvalancheGo node: every endpoint answered HTTP 404 ` +
            `(${[...notFound].slice(0, 3).join(', ')}${notFound.size > 3 ? ', ...' : ''}); the URL should be the node's ` +
            `base, e.g. http://127.0.0.1:9650, without a path`
        : `${baseUrl} is not a JSON-RPC server: every call answered HTTP 404; the URL should be the one the server ` +
            `answers JSON-RPC at`,
    );
  }
  const totals = { PASS: 0, FAIL: 0, SKIP: 0 };
  for (const r of results) totals[r.status] += 1;
  // The report may be written to a file (--json): the params it shows lose their secrets (x-sensitive) there.
  const redactor = new Redactor(model);
  for (const r of results) for (const check of r.checks) check.params = redactor.reportParams(r.method, check.params);
  return {
    url: baseUrl,
    ...(nodeVersion ? { nodeVersion: { version: nodeVersion.version, source: nodeVersion.source } } : {}),
    spec: { documents: model.endpoints.length, methods: validator.methods.size },
    discovered: facts.counts(),
    results,
    totals,
  };

  async function checkMethod(entry: SpecMethod): Promise<MethodResult> {
    const { endpoint, method } = entry;
    const base = { method: method.name, endpoint: avalanche ? endpointPath(endpoint, options.pathVariables) : '' };
    const skip = (reason: string): MethodResult => ({ ...base, status: 'SKIP', reason, checks: [] });
    if (endpoint.mockOnly) return skip('served only by the mock node (x-mock-only), never by a node');
    if (!isSafeRead(entry) && !options.includeWrites)
      return skip(
        method.sideEffects === undefined && !avalanche
          ? 'may change state: the spec does not mark it x-side-effects: none (--include-writes calls it)'
          : 'write method (changes node or chain state; --include-writes calls it)',
      );
    const unserved = unservedAt(entry);
    if (unserved) return skip(unserved);
    const examples = exampleCases(method, (params) => substituteParams(method, params, facts));
    // A method that needs no params can be called without an example.
    if (examples.length === 0 && !method.params.some((p) => p.required))
      examples.push({ name: 'without params', kind: 'example', params: {} });
    if (examples.length === 0) return skip('no usable params (the spec has no example that matches its own schemas)');
    const valid = examples[0]!.params;
    const profile = wireProfile(entry);
    const invalid = invalidCases(model.schemas, method, valid, (params) => {
      const wire = wireParams(entry, params);
      return wire !== GAP && validator.checkParams(method.name, wire).length > 0;
    });
    // `encoding` values are Avalanche's; elsewhere a param of that name means something else.
    const cases: CallCase[] = [
      ...examples,
      ...invalid.filter((c) => profile === 'node' || c.kind !== 'unknown-encoding'),
    ];

    const checks: CheckResult[] = [];
    for (const call of cases) {
      const { id, answer: pending } = send(entry, call.params);
      const answer = await pending;
      const verdict = judge(validator, entry, call.kind, id, answer);
      const result = call.kind === 'example' ? resultOf(answer) : undefined;
      if (result !== undefined) facts.harvest(method, result);
      // The endpoint went away mid-way (404/503): what was already checked still counts.
      if (verdict.kind === 'unavailable') {
        if (checks.length === 0) return skip(verdict.reason);
        break;
      }
      if (verdict.kind === 'unserved') return unservedMethod(base, verdict.message, call, nodeVersion);
      const { kind: _kind, ...outcome } = verdict;
      if (call.twin) outcome.violations.push(...(await sameAsTwin(entry, answer, call.twin)));
      checks.push({ name: call.name, kind: call.kind, params: call.params, ...outcome });
    }
    return { ...base, status: checks.some((c) => c.violations.length > 0) ? 'FAIL' : 'PASS', checks };
  }

  /** An omitted `x-zero-when-absent` param must be answered as the call that sends its zero value. */
  async function sameAsTwin(entry: SpecMethod, answer: RpcAnswer, twin: Record<string, Json>): Promise<Violation[]> {
    const other = await send(entry, twin).answer;
    const outcome = (a: RpcAnswer) => {
      if (a.kind !== 'json') return a.kind === 'text' ? `HTTP ${a.status}` : 'no answer';
      const { result, error } = (a.body ?? {}) as { result?: Json; error?: { code: number; message: string } };
      return JSON.stringify(error ? { error: { code: error.code, message: error.message } } : { result });
    };
    const [left, right] = [outcome(answer), outcome(other)];
    if (left === right) return [];
    const short = (text: string) => (text.length > 200 ? `${text.slice(0, 197)}...` : text);
    return [
      {
        pointer: '',
        rule: 'zero-when-absent',
        message: `the omission must be answered as ${JSON.stringify(twin)}: got ${short(left)}, not ${short(right)}`,
      },
    ];
  }
}

/** A by-position call that would leave a hole before a later param: it cannot be sent. */
const GAP = Symbol('gap');

/**
 * Params as the method takes them on the wire: an object by name, or for a plain JSON-RPC 2.0 method whose
 * `paramStructure` is `by-position` an array in declared order (trailing absent params left off).
 */
function wireParams(entry: SpecMethod, params: Record<string, Json>): Record<string, Json> | Json[] | typeof GAP {
  if (wireProfile(entry) === 'node' || entry.method.paramStructure !== 'by-position') return params;
  const values = entry.method.params.map((p) => params[p.name]);
  while (values.length > 0 && values.at(-1) === undefined) values.pop();
  return values.includes(undefined) ? GAP : (values as Json[]);
}

/** The result of a successful answer, for harvesting live params. */
function resultOf(answer: RpcAnswer): Json | undefined {
  const body = answer.kind === 'json' ? answer.body : undefined;
  return body !== null && typeof body === 'object' && 'result' in body ? (body.result as Json) : undefined;
}
