/**
 * An OpenRPC document whose every string tries to become code or markup in some artifact: each field holds the same
 * attack in every context (a comment's end, a string's quote, a template literal's `${`, a line terminator, an HTML
 * comment's end, a script tag, a `javascript:` link, a Handlebars expression). What the attack runs, if it ever runs,
 * pushes the field's number onto `globalThis.hostileRan` and writes `markFile`, at once (no promise to wait for).
 */

/** The attack of field `n`. */
export function payload(n: number, markFile: string): string {
  const run = `(globalThis.hostileRan??=[]).push(${n})`;
  return [
    `F${n}`,
    `*/ ${run}; process.getBuiltinModule("node:fs").writeFileSync(${JSON.stringify(markFile)}, "${n}"); /*`,
    `\${${run}}`,
    `\`; ${run}; \``,
    `'; ${run}; '`,
    `"; ${run}; "`,
    `\n${run};\n// `,
    `\r\n${run};\r`,
    `\u2028${run};\u2029`,
    `--> ${run} <!--`,
    `</script><script>${run}</script>`,
    `<img src=x onerror="${run}">`,
    `[link](javascript:${run})`,
    `{{constructor.constructor("${run}")()}}`,
    '\\',
  ].join(' ');
}

/** Property names that are also names of Object.prototype's members, as params too (`__proto__` a member like any other). */
export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'hasOwnProperty', 'toString'];

/** The hostile document; `fields` lists what each number stands for, for the test's messages. */
export function hostileDocument(markFile: string): { document: object; fields: string[] } {
  const fields: string[] = [];
  const p = (field: string) => {
    fields.push(field);
    return payload(fields.length - 1, markFile);
  };
  const enumValue = p('enum value');
  const value = p('example param value');
  const propertyName = p('property name');
  const resultValue = p('example result value');
  const paramName = p('param name');
  // Half the prototype names name a property typed inline, half a property typed by a component of that name.
  const properties = Object.fromEntries(
    [propertyName, ...PROTOTYPE_NAMES].map((name, i) => [
      name,
      i % 2 ? { $ref: `#/components/schemas/${name}` } : { type: 'string', description: p(`property ${name}`) },
    ]),
  );
  const schemas = Object.fromEntries(
    PROTOTYPE_NAMES.map((name) => [name, { type: 'string', description: p(`component ${name}`) }]),
  );
  const result = Object.fromEntries([propertyName, ...PROTOTYPE_NAMES].map((name) => [name, resultValue]));
  const document = {
    openrpc: '1.3.2',
    info: {
      title: p('info.title'),
      description: p('info.description'),
      version: '1.0.0',
      license: { name: p('info.license.name') },
      'x-extension': p('info extension'),
    },
    servers: [
      {
        name: p('server name'),
        description: p('server description'),
        url: 'http://127.0.0.1:9650/ext/{chain}',
        variables: { chain: { default: p('server variable default'), description: p('server variable description') } },
      },
    ],
    methods: [
      {
        name: `hostile.${p('method name')}`,
        summary: p('method summary'),
        description: p('method description'),
        tags: [{ name: p('tag name'), description: p('tag description') }],
        paramStructure: 'by-name',
        params: [
          ...PROTOTYPE_NAMES.map((name) => ({ name, schema: { $ref: `#/components/schemas/${name}` } })),
          // A pattern of a few strings: the client types this param as their union, by name.
          { name: p('pattern param name'), schema: { type: 'string', pattern: "^(it's|\\*/ x|plain)$" } },
          {
            name: paramName,
            summary: p('param summary'),
            description: p('param description'),
            required: true,
            schema: {
              title: p('schema title'),
              description: p('schema description'),
              type: 'string',
              enum: [enumValue, value, 'plain'],
              default: value,
              examples: [value],
            },
          },
        ],
        result: {
          name: p('result name'),
          description: p('result description'),
          schema: {
            type: 'object',
            description: p('result schema description'),
            required: [propertyName, ...PROTOTYPE_NAMES],
            properties,
          },
        },
        errors: [{ code: -32000, message: p('error message'), data: p('error data') }],
        examples: [
          {
            name: p('example name'),
            summary: p('example summary'),
            description: p('example description'),
            params: [...PROTOTYPE_NAMES.map((name) => ({ name, value })), { name: paramName, value }],
            result: { name: p('example result name'), value: result },
          },
        ],
        deprecated: true,
        'x-replacement': p('x-replacement'),
        'x-docs-discrepancies': [p('x-docs-discrepancies')],
      },
    ],
    components: { schemas },
  };
  return { document, fields };
}
