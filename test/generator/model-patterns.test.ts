/**
 * The patterns an endpoint's validators test (generators/model/patterns.ts), which the mock compiles while idle: read
 * through the model (params, results, the shared schemas they refer to), never by walking the raw document.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../generators/model/build.ts';
import { patternsOf } from '../../generators/model/patterns.ts';

const document = {
  openrpc: '1.2.6',
  info: { title: 'Patterns', version: '1.0.0' },
  methods: [
    {
      name: 'a.get',
      params: [
        { name: 'id', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } },
        { name: 'ref', schema: { $ref: '#/components/schemas/Outer' } },
      ],
      result: { name: 'r', schema: { type: 'array', items: { type: 'string', pattern: '^r$' } } },
      examples: [{ name: 'e', params: [{ name: 'id', value: { pattern: '^example$' } }], result: { value: [] } }],
    },
  ],
  components: {
    schemas: {
      // A property named `pattern` is a schema, not a pattern; the one inside it is.
      Outer: {
        type: 'object',
        properties: {
          pattern: { type: 'string', pattern: '^[a-f]{2}$' },
          inner: { $ref: '#/components/schemas/Inner' },
        },
      },
      Inner: { anyOf: [{ type: 'string', pattern: '^[0-9]+$' }, { $ref: '#/components/schemas/Outer' }] },
      Unused: { type: 'string', pattern: '^unused$' },
    },
  },
};

describe('patternsOf', () => {
  it('finds every pattern the methods reach, through shared schemas and cycles, each once', () => {
    const model = buildModel([{ name: 'patterns', file: 'patterns.json', document, sources: [] }]);
    expect(patternsOf(model, model.endpoints[0]!).sort()).toEqual(['^[0-9]+$', '^[a-f]{2}$', '^r$']);
  });
});
