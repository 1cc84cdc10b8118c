/**
 * What the client README says that depends on the spec: an Avalanche spec's client talks to a node, any other's to
 * the spec's server, and every sample names only what the generated package exports.
 */
import { jsLiteral as literal } from '../emit/literal.ts';
import { clientClassName } from '../model/names.ts';
import type { EndpointModel, SpecModel } from '../model/types.ts';
import { MAX_SHOWN_EXAMPLE, largerThan } from '../shared/example-size.ts';
import { clientConstruction } from '../shared/snippets.ts';

export interface ReadmeFacts {
  /** The spec opts into the avalanche profile: its clients talk to AvalancheGo. */
  nodeProfile: boolean;
  /** What answers the calls: `node` for an Avalanche spec, `server` for any other. */
  peer: string;
  /** Some endpoint's URL has variables, which its client's constructor takes. */
  pathVariables: boolean;
  /** Some method has releases (`nodeVersion` is checked against them). */
  versioned: boolean;
  /** How a foreign spec's methods send their params: the end of a sentence of Markdown, over two lines. */
  paramsSent: string;
  /** A call that tells the method's documented errors apart, or undefined when no method documents one. */
  errorsExample: string | undefined;
  /** Error names the package once gave and gives no more (`x-renamed-errors`), by client class. */
  renamedErrors: Array<{ client: string; from: string; to: string }>;
}

export function readmeFacts(model: SpecModel, endpoint: EndpointModel | undefined): ReadmeFacts {
  const methods = model.endpoints.flatMap((e) => e.methods);
  const byName = methods.filter((m) => m.paramStructure === 'by-name').length;
  return {
    nodeProfile: model.profile === 'avalanche',
    peer: model.profile === 'avalanche' ? 'node' : 'server',
    pathVariables: model.endpoints.some((e) => e.pathVariables.length > 0),
    versioned: methods.some((m) => m.versions.since || m.versions.removedIn || m.versions.lastVersion),
    paramsSent:
      byName === methods.length && byName > 0
        ? 'params by name, as an object (`{}` when there are none).'
        : byName === 0
          ? 'params as an array in their declared order (`[]` when there are none),\nas the spec takes them by ' +
            'position or leaves it open.'
          : 'params by name, as an object, for a method the spec takes by name,\nand as an array in their declared ' +
            'order for the others (`{}` or `[]` when there are none).',
    errorsExample: endpoint && errorsExample(model, endpoint),
    renamedErrors: model.endpoints.flatMap((e) =>
      e.renamedErrors.map((renamed) => ({ client: clientClassName(e.typeName), ...renamed })),
    ),
  };
}

/**
 * The first current method of the endpoint that documents errors and can be called as written: without params, or
 * with an example's. Its first documented error is checked at compile time, its last at run time.
 */
function errorsExample(model: SpecModel, endpoint: EndpointModel): string | undefined {
  for (const method of endpoint.methods) {
    if (method.deprecated || method.errors.length === 0 || !method.result) continue;
    const required = method.params.some((p) => p.required);
    const example = method.examples.find((e) => !largerThan(e.params, MAX_SHOWN_EXAMPLE));
    if (required && !example) continue;
    const args = method.params.length > 0 && example ? literal(example.params, '  ') : '';
    const first = literal(method.errors[0]!.name);
    const last = literal(method.errors.at(-1)!.name);
    // Each check's comment on a line of its own, so a long spec name does not take the line past 120 columns.
    return [
      `import { JsonRpcError, ${clientClassName(endpoint.typeName)} } from '${model.packageNames.client}';`,
      '',
      `const client = ${clientConstruction(endpoint)};`,
      'try {',
      `  await client.${method.shortName}(${args});`,
      '} catch (error) {',
      `  if (client.failed(error, ${literal(method.shortName)}, ${first})) {`,
      '    // checked at compile time: a name the method does not document does not compile',
      '  }',
      `  if (error instanceof JsonRpcError && error.is(${last})) {`,
      '    // the same, checked at run time',
      '  }',
      '}',
    ].join('\n');
  }
  return undefined;
}

/**
 * A method's summary as its row of the README's table says it: the first sentence (execution-apis writes whole
 * paragraphs as summaries, which a table cell cannot wrap), whitespace made one space.
 */
export function tableSummary(summary: string): string {
  const text = summary.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?= [A-Z])/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}
