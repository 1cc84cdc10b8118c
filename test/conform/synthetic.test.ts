/**
 * The wrong node of the coherence rows (./synthetic-node.ts) answers well: every answer schema-valid and the same for
 * the same request, so the rows it fails, fail for coherence alone.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, mockModel } from '../../mock/spec.ts';
import { Random } from './synthetic/random.ts';
import { Synthesizer } from './synthetic/synth.ts';

describe('the synthetic answers of the wrong node', () => {
  it('are schema-valid and deterministic for every method, with well-formed identifiers', () => {
    const model = mockModel();
    for (const [name, endpoint] of Object.entries(ENDPOINTS)) {
      for (const method of model.endpoints.find((e) => e.name === name)!.methods) {
        const spec = endpoint.methods.find((s) => s.name === method.name)!;
        const synthesizer = new Synthesizer(model, method, { chain: name === 'p-chain' ? 'P' : 'X', hrp: 'avax' });
        let valid = 0;
        for (let i = 0; i < 20; i++) {
          const answer = synthesizer.answer({}, new Random(`${method.name} ${i}`));
          expect(synthesizer.answer({}, new Random(`${method.name} ${i}`))).toEqual(answer);
          if (spec.validateResult(answer)) valid++;
        }
        // The wrong node draws again on a miss and falls back to an example, so most first draws are enough.
        expect(valid, method.name).toBeGreaterThanOrEqual(10);
      }
    }
  });
});
