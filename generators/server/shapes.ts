/**
 * Decoding shapes for the server runtime's node profile (runtime/server/params.ts `Shape`): for each
 * object a schema declares, its property names by Go's folded spelling, so params are matched case-insensitively at
 * every level, as Go's encoding/json fills a struct. Computed here once, from the schemas, and embedded as data: one
 * constant per component, which the shapes that use it refer to by name, so the code grows with the document.
 */
import { componentName, isSchema } from '../model/schema-walk.ts';
import type { EndpointModel, Json, JsonSchema, SpecModel } from '../model/types.ts';
import { foldKey } from '../../runtime/server/params.ts';
import { Kinds } from './kinds.ts';

/** Code written into a literal as it is: a constant's name, or (`late`) a getter for a constant declared after it. */
export class Code {
  readonly text: string;
  readonly late: boolean;
  constructor(text: string, late = false) {
    this.text = text;
    this.late = late;
  }
}

/** A `Shape` as its literal is written: plain data, with the constants of components as Code. */
export type ShapeLiteral = { [key: string]: ShapeLiteral | Code | string | true };

/** A component's shape, used before it is known (inside its own cycle) or once it is. */
class Ref {
  readonly component: string;
  constructor(component: string) {
    this.component = component;
  }
}

interface Tree {
  properties?: Record<string, { name: string; shape?: Node; types?: string; nullable?: true }>;
  values?: Node;
  valueTypes?: string;
  items?: Node;
  itemTypes?: string;
}
type Node = Tree | Ref;

/** A component's shape: a tree of its own (declared as a constant), another component's (an alias), or none. */
type Outcome = { declared: number; tree: Tree } | { alias: Ref } | undefined;

export interface EndpointShapes {
  /** The component constants the methods need, each used after it is declared (or through a getter in a cycle). */
  declarations: Array<{ name: string; shape: ShapeLiteral }>;
  /** Each method's params shape, in the endpoint's order. */
  methods: ShapeLiteral[];
}

/** The shapes of an endpoint's methods, with the constants of the components they reach. */
export function endpointShapes(model: SpecModel, endpoint: EndpointModel): EndpointShapes {
  const builder = new ShapeBuilder(model);
  const trees = endpoint.methods.map((method) => {
    const properties: NonNullable<Tree['properties']> = {};
    for (const param of method.params) properties[foldKey(param.name)] = builder.property(param.name, param.schema);
    return { properties };
  });
  const names = constantNames(builder.declared);
  const literal = (tree: Tree, at: number) => builder.literal(tree, at, names);
  return {
    declarations: builder.declared.map((component, at) => {
      const outcome = builder.outcomes.get(component) as { tree: Tree };
      return { name: names.get(component)!, shape: literal(outcome.tree, at) };
    }),
    methods: trees.map((tree) => literal(tree, Number.POSITIVE_INFINITY)),
  };
}

/** `UTXOShape`: the component's name as an identifier, made unique. */
function constantNames(components: string[]): Map<string, string> {
  const names = new Map<string, string>();
  // `Shape` is the type the constants are declared with.
  const taken = new Set<string>(['Shape']);
  for (const component of components) {
    const base = `${component.replace(/[^\w$]/g, '_').replace(/^(?=\d)/, '_')}Shape`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    names.set(component, name);
  }
  return names;
}

class ShapeBuilder {
  /** Each component's outcome once known; `pending` while its own shape is being worked out. */
  readonly outcomes = new Map<string, Outcome | 'pending'>();
  /** The components with a tree of their own, each after those it uses (except within a cycle). */
  readonly declared: string[] = [];
  /** Each referred component's constant, once looked up through its aliases. */
  private readonly targets = new Map<string, string | undefined>();
  private readonly model: SpecModel;
  private readonly nullable: Set<string>;
  private readonly kinds: Kinds;

  constructor(model: SpecModel) {
    this.model = model;
    this.nullable = nullableComponents(model);
    this.kinds = new Kinds(model);
  }

  property(name: string, schema: Json): NonNullable<Tree['properties']>[string] {
    const shape = this.shapeOf(schema);
    const types = this.kinds.typesOf(schema);
    return {
      name,
      ...(shape ? { shape } : {}),
      ...(types !== undefined ? { types } : {}),
      ...(this.acceptsNull(schema) ? { nullable: true } : {}),
    };
  }

  /**
   * A component still being worked out (the schema is within its own cycle) is referred to as if it had a shape: the
   * decoding then recurses as Go's does, and the reference is dropped if it turns out to have none.
   */
  private shapeOf(schema: Json): Node | undefined {
    if (!isSchema(schema)) return undefined;
    if (typeof schema.$ref === 'string') {
      const name = componentName(schema.$ref);
      return name === undefined || !Object.hasOwn(this.model.schemas, name) ? undefined : this.component(name);
    }
    const tree: Tree = {};
    if (isSchema(schema.properties)) {
      tree.properties = {};
      for (const [name, child] of Object.entries(schema.properties))
        if (isSchema(child)) tree.properties[foldKey(name)] = this.property(name, child);
    }
    if (isSchema(schema.additionalProperties)) {
      tree.values = this.shapeOf(schema.additionalProperties) ?? {};
      const types = this.kinds.typesOf(schema.additionalProperties);
      if (types !== undefined) tree.valueTypes = types;
    }
    if (isSchema(schema.items)) {
      const items = this.shapeOf(schema.items);
      if (items) tree.items = items;
      const types = this.kinds.typesOf(schema.items);
      if (types !== undefined) tree.itemTypes = types;
    }
    if (tree.properties || tree.values || tree.items || tree.itemTypes) return tree;
    // A union decodes like its one structured branch (`X` or null); with several, the value is left as sent. An array
    // of scalars (only its items' types known) is no structure to choose a branch by.
    const branches = ['anyOf', 'oneOf', 'allOf']
      .flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as Json[]) : []))
      .map((branch) => this.shapeOf(branch))
      .filter((branch) => branch !== undefined && (branch instanceof Ref || !onlyTypes(branch)));
    return branches.length === 1 ? branches[0] : undefined;
  }

  private component(name: string): Ref | undefined {
    const known = this.outcomes.get(name);
    if (known === 'pending') return new Ref(name);
    if (known !== undefined || this.outcomes.has(name)) return known && new Ref(name);
    this.outcomes.set(name, 'pending');
    const shape = this.shapeOf(this.model.schemas[name]!);
    let outcome: Outcome;
    if (shape instanceof Ref) outcome = { alias: shape };
    else if (shape) outcome = { declared: this.declared.push(name) - 1, tree: shape };
    this.outcomes.set(name, outcome);
    return outcome && new Ref(name);
  }

  /**
   * The component whose constant a reference stands for, through aliases, if it has one: it may have turned out to
   * have none, or to be an alias of itself through others.
   */
  private target(component: string): string | undefined {
    const chain = new Set<string>();
    let found: string | undefined;
    for (let at: string | undefined = component; at !== undefined && !chain.has(at); ) {
      if (this.targets.has(at)) {
        found = this.targets.get(at);
        break;
      }
      chain.add(at);
      const outcome = this.outcomes.get(at);
      if (outcome === undefined || outcome === 'pending') break;
      if (!('alias' in outcome)) found = at;
      at = 'alias' in outcome ? outcome.alias.component : undefined;
    }
    for (const name of chain) this.targets.set(name, found);
    return found;
  }

  /** The tree as written in the constant declared `at` (a method's: after all of them). */
  literal(tree: Tree, at: number, names: Map<string, string>): ShapeLiteral {
    const node = (shape: Node): ShapeLiteral | Code | undefined => {
      if (!(shape instanceof Ref)) return this.literal(shape, at, names);
      const component = this.target(shape.component);
      if (component === undefined) return undefined;
      const { declared } = this.outcomes.get(component) as { declared: number };
      return new Code(names.get(component)!, declared >= at);
    };
    const out: ShapeLiteral = {};
    if (tree.properties) {
      const properties: ShapeLiteral = {};
      for (const [key, { name, shape, types, nullable }] of Object.entries(tree.properties)) {
        const written = shape && node(shape);
        properties[key] = {
          name,
          ...(written ? { shape: written } : {}),
          ...(types !== undefined ? { types } : {}),
          ...(nullable ? { nullable } : {}),
        };
      }
      out.properties = properties;
    }
    if (tree.values) out.values = node(tree.values) ?? {};
    if (tree.valueTypes !== undefined) out.valueTypes = tree.valueTypes;
    if (tree.items) out.items = node(tree.items) ?? {};
    if (tree.itemTypes !== undefined) out.itemTypes = tree.itemTypes;
    return out;
  }

  /** Whether JSON null is a value of the schema (then a null param is passed on, not treated as absent). */
  private acceptsNull(schema: Json): boolean {
    const refs: string[] = [];
    return acceptsNullHere(schema, refs) || refs.some((name) => this.nullable.has(name));
  }
}

function onlyTypes(tree: Tree): boolean {
  return !tree.properties && !tree.values && !tree.items;
}

/**
 * Whether null is a value of the schema by its own keywords (`true`, type null, an enum or const of null, a union's
 * branch), adding to `refs` the components it would also accept null through.
 */
function acceptsNullHere(schema: Json, refs: string[]): boolean {
  if (!isSchema(schema)) return schema === true;
  if (typeof schema.$ref === 'string') {
    const name = componentName(schema.$ref);
    if (name !== undefined) refs.push(name);
    return false;
  }
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  return ['anyOf', 'oneOf'].some((key) => {
    const branches = schema[key];
    return Array.isArray(branches) && branches.some((branch) => isSchema(branch) && acceptsNullHere(branch, refs));
  });
}

/** The components null is a value of: those that accept it by their own keywords, then those that refer to one. */
function nullableComponents(model: SpecModel): Set<string> {
  const nullable = new Set<string>();
  const users = new Map<string, string[]>();
  const found: string[] = [];
  for (const [name, schema] of Object.entries(model.schemas as Record<string, JsonSchema>)) {
    const refs: string[] = [];
    if (acceptsNullHere(schema, refs)) found.push(name);
    else
      for (const ref of refs) {
        const list = users.get(ref);
        if (list) list.push(name);
        else users.set(ref, [name]);
      }
  }
  for (let name = found.pop(); name !== undefined; name = found.pop()) {
    if (nullable.has(name)) continue;
    nullable.add(name);
    found.push(...(users.get(name) ?? []));
  }
  return nullable;
}
