/**
 * Every generated identifier is decided here, once, from spec names: endpoint stems, method type names, shared
 * schema names. Two different things that would get the same name stop generation with both sources named.
 */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

export function endpointTypeName(endpointName: string): string {
  return pascalCase(endpointName);
}

export function methodTypeNames(methodName: string): { params: string; result: string } {
  const stem = pascalCase(methodName.replace('.', ' '));
  return { params: `${stem}Params`, result: `${stem}Result` };
}

/** Registers names and the thing each stands for; a second, different owner of a name is a collision. */
export class NameRegistry {
  private readonly owners = new Map<string, string>();
  readonly collisions: string[] = [];

  claim(name: string, owner: string): void {
    const existing = this.owners.get(name);
    if (existing !== undefined && existing !== owner) {
      this.collisions.push(`the name "${name}" would stand for both ${existing} and ${owner}`);
    } else {
      this.owners.set(name, owner);
    }
  }
}
