/**
 * The stateless answer of a method: the example's result when the params are an example's, otherwise a deterministic
 * answer built from the schema (same params, same answer), checked with the method's own result validator. Should
 * the built answer not validate, the closest example's result is answered instead, so every answer is schema-valid.
 */
import { canonicalJson as canonical } from '../generators/model/names.ts';
import type { Json, MethodModel, SpecModel } from '../generators/model/types.ts';
import type { MethodSpec } from '../generated/server/dist/index.js';
import { Random } from './random.ts';
import { type Network, Synthesizer, encodingOf } from './synth.ts';

const CACHED_ANSWERS = 512;

export class MethodAnswers {
  private readonly synthesizer: Synthesizer;
  private readonly examples: Array<{ key: string; sent: string; params: Record<string, Json>; result: Json }>;
  private readonly cache = new Map<string, Json>();

  constructor(
    model: SpecModel,
    readonly method: MethodModel,
    private readonly spec: MethodSpec,
    network: Network,
  ) {
    this.synthesizer = new Synthesizer(model, method, network);
    this.examples = method.examples.map((example) => ({ key: canonical(example.params), sent: JSON.stringify(example.params), params: example.params, result: example.result }));
  }

  /** The example whose params are exactly these, if any. */
  example(params: Record<string, unknown>): Json | undefined {
    let key: string;
    try {
      key = canonical(params);
    } catch {
      return undefined;
    }
    // Answers are only serialized, never changed, so the example's own value is answered as it is.
    return this.examples.find((example) => example.key === key)?.result;
  }

  answer(params: Record<string, unknown>): Json {
    // Params as sent (key order included) name a repeated request cheaply; the canonical form, only when needed.
    let sent: string;
    try {
      sent = JSON.stringify(params);
    } catch {
      sent = '';
    }
    const known = this.cache.get(sent) ?? this.examples.find((candidate) => candidate.sent === sent)?.result;
    if (known !== undefined) return known;
    let key: string;
    try {
      key = canonical(params);
    } catch {
      key = '';
    }
    // Answers are deterministic, so a repeated request can have the answer built the first time.
    const answer = this.examples.find((candidate) => candidate.key === key)?.result ?? this.build(params, `${this.method.name} ${key}`);
    if (this.cache.size >= CACHED_ANSWERS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(sent, answer);
    return answer;
  }

  private build(params: Record<string, unknown>, seed: string): Json {
    // Conditional schemas (`if`/`then`) can reject a first draw; a few more draws from the same seed settle them.
    for (let draw = 0; draw < 4; draw++) {
      const built = this.synthesizer.answer(params, new Random(draw === 0 ? seed : `${seed}#${draw}`));
      if (built !== undefined && this.spec.validateResult(built)) return built;
    }
    return structuredClone(this.closest(params).result);
  }

  /** The example sharing the most param values with the request, the requested encoding above all. */
  private closest(params: Record<string, unknown>): { result: Json } {
    const score = (example: { params: Record<string, Json> }) =>
      (encodingOf(example.params) === encodingOf(params) ? 100 : 0) +
      Object.entries(example.params).filter(([name, value]) => canonical(value) === canonical(params[name])).length;
    return this.examples.reduce((best, example) => (score(example) > score(best) ? example : best), this.examples[0]!);
  }
}
