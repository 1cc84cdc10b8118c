/**
 * One Ajv for every endpoint of a process (runtime/server/ajv.ts): each document under its own $id, so that two
 * documents' components of one name stay apart; and compileSteps, the params validators a server compiles while idle.
 */
import { describe, expect, it } from 'vitest';
import { compileSteps, methodValidators } from '../../runtime/server/ajv.ts';

/** A document whose method `m` takes a `#/components/schemas/Id`, and whose Id is `id`. */
function endpoint(id: object, method = 'm') {
  const document = { components: { schemas: { Id: id } } };
  const schemas = { [method]: { params: { $ref: '#/components/schemas/Id' }, result: {} } };
  return { document, validator: methodValidators(document, { schemas, components: {} }) };
}

describe('the Ajv the endpoints share', () => {
  it("resolves each document's refs in its own components, whichever endpoint is called first", () => {
    const text = endpoint({ type: 'string' });
    const number = endpoint({ type: 'integer' });
    const checkNumber = number.validator('m', 'params');
    const checkText = text.validator('m', 'params');
    expect([checkNumber(1), checkNumber('a'), checkText('a'), checkText(1)]).toEqual([true, false, true, false]);
    // Every error is listed by the other Ajv, which holds each document apart as well.
    expect(checkText({})).toBe(false);
    expect(checkText.errors?.map((e) => [e.keyword, e.instancePath])).toEqual([['type', '']]);
    expect(checkNumber({})).toBe(false);
    expect(checkNumber.errors?.[0]?.params).toEqual({ type: 'integer' });
  });

  it("compiles a document's params validators a step each, ahead of their first calls", () => {
    const { document, validator } = endpoint({ type: 'string', pattern: '^a+$' }, 'a/b~c');
    const steps = compileSteps(document);
    expect(steps).toHaveLength(1);
    for (const step of steps) step();
    const check = validator('a/b~c', 'params');
    expect([check('aa'), check('ab')]).toEqual([true, false]);
    expect(compileSteps(document, [])).toEqual([]);
    expect(compileSteps({})).toEqual([]);
  });

  it('leaves a method whose schema does not compile to its own first call to report', () => {
    const { document, validator } = endpoint({ $ref: '#/components/schemas/Missing' });
    for (const step of compileSteps(document)) expect(step).not.toThrow();
    expect(() => validator('m', 'params')('x')).toThrow(/Missing/);
  });
});
