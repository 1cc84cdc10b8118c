/**
 * The stateless answer of a method: the example's result when the params are an example's, otherwise a deterministic
 * answer built from the schema (same params, same answer), checked with the method's own result validator. Should
 * the built answer not validate, the closest example's result is answered instead, so every answer is schema-valid.
 */
import { sameJson } from '../../../conform/json.ts';
import { canonicalJson as canonical } from '../../../generators/common/json.ts';
import type { Json, MethodModel, SpecModel } from '../../../generators/model/types.ts';
import { type MethodSpec, type RawJson, rawJson } from '../../../generated/server/dist/index.js';
import { Random } from './random.ts';
import { type Network, Synthesizer, encodingOf } from './synth.ts';

const CACHED_ANSWERS = 512;

export class MethodAnswers {
  /** Built answers by the params as sent, written once: they are deterministic and never change. */
  private readonly cache = new Map<string, RawJson>();
  // Both made on first use: a mock node has some 150 methods, and the world answers most of them without either.
  #synthesizer: Synthesizer | undefined;
  #examples: Array<{ params: Record<string, Json>; result: Json; written: RawJson }> | undefined;

  private readonly model: SpecModel;
  readonly method: MethodModel;
  private readonly spec: MethodSpec;
  private readonly network: Network;
  constructor(model: SpecModel, method: MethodModel, spec: MethodSpec, network: Network) {
    this.model = model;
    this.method = method;
    this.spec = spec;
    this.network = network;
  }

  private get synthesizer(): Synthesizer {
    return (this.#synthesizer ??= new Synthesizer(this.model, this.method, this.network));
  }

  private get examples(): Array<{ params: Record<string, Json>; result: Json; written: RawJson }> {
    return (this.#examples ??= this.method.examples.map((example) => ({
      params: example.params,
      result: example.result,
      written: rawJson(example.result),
    })));
  }

  /** The result of the example whose params are these (members in any order), if any. */
  example(params: Record<string, unknown>): RawJson | undefined {
    return this.examples.find((example) => sameJson(params, example.params))?.written;
  }

  answer(params: Record<string, unknown>): RawJson {
    const example = this.example(params);
    if (example) return example;
    // Params as sent (key order included) name a repeated request cheaply; their canonical form seeds a new answer.
    // Params are parsed JSON, which always writes back.
    const sent = JSON.stringify(params);
    const known = this.cache.get(sent);
    if (known !== undefined) return known;
    const answer = rawJson(this.build(params, `${this.method.name} ${canonical(params)}`));
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
    return this.closest(params).result;
  }

  /** The example sharing the most param values with the request, the requested encoding above all. */
  private closest(params: Record<string, unknown>): { result: Json } {
    const score = (example: { params: Record<string, Json> }) =>
      (encodingOf(example.params) === encodingOf(params) ? 100 : 0) +
      Object.entries(example.params).filter(([name, value]) => canonical(value) === canonical(params[name])).length;
    return this.examples.reduce((best, example) => (score(example) > score(best) ? example : best), this.examples[0]!);
  }
}
