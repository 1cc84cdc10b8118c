/** Code that uses the generated client, shown by the client's README and by the docs site alike. */
import { jsLiteral as literal } from '../emit/literal.ts';
import { clientClassName } from '../model/names.ts';
import type { EndpointModel, ExampleModel, MethodModel } from '../model/types.ts';

/** How to construct the endpoint's client: AVM endpoints name their chain, the others need nothing. */
export function clientConstruction(endpoint: EndpointModel): string {
  const options = endpoint.pathVariables.map((variable) => `${variable.name}: ${literal(variable.default)}`);
  return `new ${clientClassName(endpoint.typeName)}(${options.length > 0 ? `{ ${options.join(', ')} }` : ''})`;
}

/** The import and construction of the endpoint's client, which every snippet starts with. */
export function clientSetup(clientPackage: string, endpoint: EndpointModel): string[] {
  return [
    `import { ${clientClassName(endpoint.typeName)} } from '${clientPackage}';`,
    '',
    `const client = ${clientConstruction(endpoint)};`,
  ];
}

/** A call of the method with the example's params through the generated client, ready to paste. */
export function clientSnippet(
  clientPackage: string,
  endpoint: EndpointModel,
  method: MethodModel,
  example: ExampleModel,
  target = 'result',
): string {
  const args = method.params.length === 0 ? '' : literal(example.params);
  return [...clientSetup(clientPackage, endpoint), `const ${target} = await client.${method.shortName}(${args});`].join(
    '\n',
  );
}
