/**
 * Secrets out of everything the proxy records and the conformance runner reports. The spec marks them
 * `x-sensitive: true` (passwords, exported users), and they are found as the node finds them:
 * - keys as Go's encoding/json matches them (./go-fold.ts), after JSON unescaping, at every spelling the node accepts
 *   (`PASSWORD`, `paſſword`, `"pass\u0077ord"`), including the envelope's own `params` and `method` keys;
 * - methods as the node's codec resolves them (the initial after the dot raised), so a look-alike of a method with
 *   secrets (`KEYSTORE.createuser`) or one the node refuses (`keystore.CreateUser`) loses its params;
 * - a body that is not exactly one request (a batch, JSON followed by more bytes, no method) is recorded without its
 *   params, and one that is not JSON at all is not recorded;
 * - a value where the spec expects an object holding a secret (`"params": "hunter2"`) is redacted whole, and so is an
 *   answer's `error.data` (gorilla/rpc echoes the request's params there) and a non-JSON answer to a secret call.
 * Keys named like a secret are redacted anywhere, in any method, as a second line of defence.
 */
import { type SecretShape, SecretSchemas, secretRoots } from '../generators/model/sensitive.ts';
import type { SpecModel } from '../generators/model/types.ts';
import { GoSyntaxError, parseFirstValue } from '../runtime/server/json.ts';
import { type KeyMatcher, goFoldMatcher } from './go-fold.ts';
import { isObject } from '../generators/common/json.ts';
import { CORETH_PERSONAL_SECRETS } from './coreth-secrets.ts';
import type { ParsedBody } from './transcript.ts';

export const REDACTED = '<redacted>';
export const NOT_ONE_REQUEST = 'not exactly one JSON-RPC request: recorded without its params';
export const LOOKALIKE =
  'a method name the node refuses, or spelled like a method with secrets: recorded without its params';
export const NOT_JSON = 'not JSON as the node reads it: not recorded';
export const UNDESCRIBED = 'a method the spec does not describe: recorded without its params';
export const POSITIONAL = "coreth's personal_* secrets: recorded without them";

interface MethodSecrets {
  /** The params with secrets, by name: the params object's properties, or each object of a params array's. */
  params: SecretShape;
  result: SecretShape;
  /** The params the method declares: any other key sent to it is unknown, so redacted. */
  declared: KeyMatcher[];
}

/** How the redactor read a request: what its answer is redacted by. */
export interface RequestReading {
  /** The method named, when the body is one request naming one as a string. */
  method?: string;
  /** The request as it may be recorded (absent when nothing of it may). */
  json?: unknown;
  /** Why part or all of the request was left out. */
  note?: string;
  /** The spec method the node would run, when it has secrets. */
  secrets?: MethodSecrets;
  /** Whether the answer may carry a secret the redactor cannot locate: a non-JSON answer is then not recorded. */
  secretive: boolean;
  /**
   * When the body is not exactly one request: the secrets of the answers, by the id (as JSON) of each call whose
   * result holds one. The node still runs each call of a batch, and the first value of a body with more after it.
   */
  results?: Map<string, SecretShape>;
}

type Obj = Record<string, unknown>;
const isParams = goFoldMatcher('params');
const isMethod = goFoldMatcher('method');
const isId = goFoldMatcher('id');
const WHOLLY_SECRET: SecretShape = { secret: true, properties: [], items: [] };

export class Redactor {
  /** Methods with secrets, by the name the node resolves them to. */
  private readonly methods = new Map<string, MethodSecrets>();
  /** Every method the spec describes, by the name the node resolves it to. */
  private readonly described = new Set<string>();
  private readonly lookalikes: KeyMatcher[] = [];
  private readonly matchers = new Map<string, KeyMatcher>();
  private readonly anyName: KeyMatcher[];
  private readonly node: boolean;
  private readonly schemas: SecretSchemas;

  constructor(model: SpecModel) {
    this.node = model.profile === 'avalanche';
    const methods = model.endpoints.flatMap((endpoint) => endpoint.methods);
    this.schemas = new SecretSchemas(secretRoots(methods), model.schemas);
    for (const method of methods) {
      this.described.add(this.resolve(method.name) ?? method.name);
      const secret = method.params.filter((param) => this.schemas.holds(param.schema));
      const result = method.result && this.schemas.holds(method.result.schema) ? [method.result.schema] : [];
      if (secret.length + result.length === 0) continue;
      const declared = method.params.map((param) => goFoldMatcher(param.name));
      this.methods.set(this.resolve(method.name) ?? method.name, {
        params: { secret: false, properties: secret.map((param) => [param.name, param.schema]), items: [] },
        result: this.schemas.shapeOf(result),
        declared,
      });
      this.lookalikes.push(goFoldMatcher(method.name));
    }
    this.anyName = this.schemas.keys.map((name) => this.matcher(name));
  }

  /** A request body, parsed (./transcript.ts), as a transcript may hold it: redacted in place. */
  request(body: ParsedBody): RequestReading {
    if (!('json' in body)) return this.notOneRequest(body.text ?? '');
    const value = body.json;
    if (Array.isArray(value)) {
      const results = this.secretResults(value);
      for (const call of value) if (isObject(call)) this.withoutParams(call);
      return { json: value.map(redactString), note: NOT_ONE_REQUEST, secretive: true, ...results };
    }
    if (!isObject(value)) return { json: redactString(value), secretive: typeof value === 'string' };
    const method = lastValue(value, isMethod);
    if (typeof method !== 'string') {
      this.withoutParams(value);
      return { json: value, note: NOT_ONE_REQUEST, secretive: true };
    }
    const resolved = this.resolve(method);
    const secrets = resolved === undefined ? undefined : this.methods.get(resolved);
    if (secrets) {
      for (const key of Object.keys(value))
        if (isParams(key)) value[key] = onlyDeclared(this.redact(value[key], secrets.params, true), secrets.declared);
      this.redactNames(value);
      return { method, json: value, secrets, secretive: true };
    }
    // Refused by the node, or spelled like a method with secrets: what the caller meant to send is unknown.
    if (resolved === undefined || this.lookalikes.some((same) => same(method))) {
      this.withoutParams(value);
      return { method, json: value, note: LOOKALIKE, secretive: true };
    }
    if (!this.described.has(resolved)) return this.undescribed(method, value);
    this.redactNames(value);
    return { method, json: value, secretive: false };
  }

  /**
   * A method the spec does not describe: where its secrets are is unknown, so its params are left out, but for the
   * positions coreth's `personal_*` methods take secrets at (./coreth-secrets.ts).
   */
  private undescribed(method: string, call: Obj): RequestReading {
    const known = CORETH_PERSONAL_SECRETS.get(method);
    if (!known) {
      this.withoutParams(call);
      return { method, json: call, note: UNDESCRIBED, secretive: true };
    }
    for (const key of Object.keys(call)) {
      const params = call[key];
      if (!isParams(key)) continue;
      if (!Array.isArray(params)) call[key] = REDACTED;
      else for (const index of known.params) if (index < params.length) params[index] = REDACTED;
    }
    this.redactNames(call);
    const nothing = { secret: false, properties: [], items: [] };
    const secrets = { params: nothing, result: { ...nothing, secret: known.result }, declared: [] };
    return { method, json: call, note: POSITIONAL, secrets, secretive: true };
  }

  /** A parsed answer to the request read as `reading`, as a transcript may hold it (modified in place). */
  response(reading: RequestReading, body: unknown): unknown {
    for (const answer of Array.isArray(body) ? body : [body]) {
      if (!isObject(answer)) continue;
      const result = reading.secrets?.result ?? reading.results?.get(JSON.stringify(lastValue(answer, isId) ?? null));
      for (const key of Object.keys(answer)) {
        // gorilla/rpc answers a request it cannot decode with the request itself as the error's data.
        if (key === 'error' && isObject(answer.error) && answer.error.data != null) answer.error.data = REDACTED;
        if (key === 'result' && result) answer.result = this.redact(answer.result, result);
      }
      this.redactNames(answer);
    }
    return Array.isArray(body) || isObject(body) ? body : redactString(body);
  }

  /** Params the conformance runner sent to `method` (a spec name), as its report may hold them: a redacted copy. */
  reportParams<T>(method: string, params: T): T {
    const copy = structuredClone(params);
    const secrets = this.methods.get(this.resolve(method) ?? method);
    const redacted = secrets ? this.redact(copy, secrets.params, true) : copy;
    this.redactNames(redacted);
    return redacted as T;
  }

  /** The name the node runs for `method`: the initial after the first dot raised; undefined when it refuses it. */
  private resolve(method: string): string | undefined {
    if (!this.node) return method;
    const dot = method.indexOf('.');
    const first = dot < 0 ? undefined : method.codePointAt(dot + 1);
    if (first === undefined) return method;
    const initial = String.fromCodePoint(first);
    if (/\p{Lu}/u.test(initial)) return undefined;
    const raised = initial.toUpperCase();
    const head = [...raised].length === 1 ? raised : initial;
    return `${method.slice(0, dot + 1)}${head}${method.slice(dot + 1 + initial.length)}`;
  }

  /** Not JSON.parse's one value: the first value as Go reads it, if any, without its params. */
  private notOneRequest(body: string): RequestReading {
    let value: unknown;
    try {
      value = parseFirstValue(Buffer.from(body, 'utf8')).value;
    } catch (error) {
      if (!(error instanceof GoSyntaxError)) throw error;
      return { note: NOT_JSON, secretive: true };
    }
    const calls = Array.isArray(value) ? value : [value];
    const results = this.secretResults(calls);
    for (const call of calls) if (isObject(call)) this.withoutParams(call);
    const method = isObject(value) ? lastValue(value, isMethod) : undefined;
    return {
      ...(typeof method === 'string' ? { method } : {}),
      json: Array.isArray(value) ? value.map(redactString) : redactString(value),
      note: NOT_ONE_REQUEST,
      secretive: true,
      ...results,
    };
  }

  /**
   * The secrets of the results `calls` ask for, by each call's id as JSON (ids matched as geth's decoder matches the
   * key); two calls of one id, the second with a secret result, make the answers of that id secret whole.
   */
  private secretResults(calls: unknown[]): { results?: Map<string, SecretShape> } {
    const results = new Map<string, SecretShape>();
    for (const call of calls) {
      if (!isObject(call)) continue;
      const shape = this.resultSecrets(lastValue(call, isMethod));
      if (!shape) continue;
      const id = JSON.stringify(lastValue(call, isId) ?? null);
      results.set(id, results.has(id) ? WHOLLY_SECRET : shape);
    }
    return results.size > 0 ? { results } : {};
  }

  /** Where the result of a call of `method` holds secrets, as a single request of it is redacted; else undefined. */
  private resultSecrets(method: unknown): SecretShape | undefined {
    if (typeof method !== 'string') return undefined;
    const resolved = this.resolve(method);
    const secrets = resolved === undefined ? undefined : this.methods.get(resolved);
    if (secrets) return secrets.result;
    return CORETH_PERSONAL_SECRETS.get(method)?.result ? WHOLLY_SECRET : undefined;
  }

  private withoutParams(call: Obj): void {
    for (const key of Object.keys(call)) if (isParams(key)) call[key] = REDACTED;
    this.redactNames(call);
  }

  /**
   * `value` with its secrets replaced, in place, walked beside its schemas one value at a time (never a `$ref` written
   * out, and no recursion: a value nested thousands deep is walked as any other). A value that cannot hold what its
   * schema places a secret in (a string where an object with a password is due) would be refused by the node with the
   * value echoed: it is replaced whole. `top`: params, which the node also reads as `[args]`.
   */
  private redact(value: unknown, shape: SecretShape, top = false): unknown {
    const root: Obj = { value };
    const pending: Array<{ parent: Obj; key: string; shape: SecretShape; top: boolean }> = [
      { parent: root, key: 'value', shape, top },
    ];
    while (pending.length > 0) {
      const { parent, key, shape, top } = pending.pop()!;
      const value = parent[key];
      const empty = !shape.secret && shape.properties.length + shape.items.length === 0;
      if (empty || value === undefined || value === null || typeof value === 'boolean') continue;
      if (shape.secret || typeof value !== 'object') parent[key] = REDACTED;
      else if (Array.isArray(value)) {
        if (shape.properties.length > 0 && !top) parent[key] = REDACTED;
        else {
          const item = top ? shape : this.schemas.shapeOf(shape.items);
          const items = value as unknown as Obj;
          for (const index of value.keys())
            pending.push({ parent: items, key: String(index), shape: item, top: false });
        }
      } else if (shape.items.length > 0) parent[key] = REDACTED;
      else
        for (const name of Object.keys(value)) {
          const below = shape.properties.filter(([property]) => this.matcher(property)(name));
          if (below.length > 0)
            pending.push({
              parent: value as Obj,
              key: name,
              shape: this.schemas.shapeOf(below.map(([, s]) => s)),
              top: false,
            });
        }
    }
    return root.value;
  }

  /** Every value under a key named like any secret of the spec, however deep, replaced (in place, no recursion). */
  private redactNames(root: unknown): void {
    const pending = [root];
    while (pending.length > 0) {
      const value = pending.pop();
      if (value === null || typeof value !== 'object') continue;
      if (Array.isArray(value)) {
        for (const item of value) pending.push(item);
        continue;
      }
      const object = value as Obj;
      for (const key of Object.keys(object)) {
        if (this.anyName.some((same) => same(key))) object[key] = REDACTED;
        else pending.push(object[key]);
      }
    }
  }

  private matcher(name: string): KeyMatcher {
    let matcher = this.matchers.get(name);
    if (!matcher) this.matchers.set(name, (matcher = goFoldMatcher(name)));
    return matcher;
  }
}

/** Params (an object, or objects in an array) with every key the method does not declare redacted, in place. */
function onlyDeclared(params: unknown, declared: KeyMatcher[]): unknown {
  for (const args of Array.isArray(params) ? params : [params])
    if (isObject(args))
      for (const key of Object.keys(args)) if (!declared.some((same) => same(key))) args[key] = REDACTED;
  return params;
}

/** The value of the last key `same` accepts: Go's decoder keeps the last of duplicate fields. */
function lastValue(object: Obj, same: KeyMatcher): unknown {
  let value: unknown;
  for (const key of Object.keys(object)) if (same(key)) value = object[key];
  return value;
}

/** A bare string where a request or answer was expected could be anything, a password too. */
const redactString = (value: unknown) => (typeof value === 'string' ? REDACTED : value);
