/**
 * Handlebars, isolated and strict: a template that names a missing field fails generation instead of printing an
 * empty string. Templates are views; what they show is computed by a view function beside each generator.
 */
import Handlebars from 'handlebars';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Template = (view: object) => string;
export interface TemplateSet {
  (name: string): Template;
  /**
   * The template `name`, rendered piece by piece: each call of the partial `partial` in it is a piece of its own,
   * rendered when the pieces reach it; the text between calls comes in pieces too. The pieces add up to what the
   * template renders. A large page is thus never one string (see emit/files.ts, StreamedFile).
   */
  pieces(name: string, partial: string): (view: object) => Generator<string>;
}

/** What a partial call was given: rendered later as the partial would have been. */
interface PartialCall {
  context: object;
  data: unknown;
  indent: string;
}

const hbsFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.hbs'))
        .sort()
    : [];

/**
 * Loads `templates/<artifact>/*.hbs`. Files starting with `_` are partials, available to every template of the
 * artifact; those directly in `templates/` are shared by all artifacts (an artifact's own partial of the same name
 * wins).
 */
export function loadTemplates(templatesDir: string, artifact: string): TemplateSet {
  const dir = join(templatesDir, artifact);
  const handlebars = Handlebars.create();
  for (const file of hbsFiles(templatesDir).filter((f) => f.startsWith('_'))) {
    handlebars.registerPartial(file.slice(1, -'.hbs'.length), readFileSync(join(templatesDir, file), 'utf8'));
  }
  const templates = new Map<string, { compiled: HandlebarsTemplateDelegate; options: CompileOptions }>();
  for (const file of hbsFiles(dir)) {
    const source = readFileSync(join(dir, file), 'utf8');
    const name = file.replace(/\.hbs$/, '');
    if (name.startsWith('_')) handlebars.registerPartial(name.slice(1), source);
    else {
      const options = { strict: true, noEscape: !file.endsWith('.html.hbs') };
      templates.set(name, { compiled: handlebars.compile(source, options), options });
    }
  }
  const template = (name: string) => {
    const found = templates.get(name);
    if (!found) throw new Error(`no template ${join(dir, name)}.hbs`);
    return found;
  };
  const set = (name: string): Template => {
    const { compiled } = template(name);
    return (view) => compiled(view);
  };
  set.pieces = (name: string, partial: string) => {
    const { compiled, options } = template(name);
    // The partial alone, compiled as the template compiles its partials.
    const alone = handlebars.compile(`{{> ${JSON.stringify(partial)}}}`, options);
    return function* (view: object): Generator<string> {
      // The page is rendered with each call of the partial standing as a mark, and each call's input noted.
      const mark = `\u0000${randomUUID()}\u0000`;
      const calls: PartialCall[] = [];
      const standIn: Handlebars.TemplateDelegate = (context: object, options) => {
        // Handlebars tells a partial its call's indent (an option its types leave out).
        const indent = (options as { indent?: string } | undefined)?.indent ?? '';
        calls.push({ context, data: options?.data, indent });
        return mark;
      };
      const parts = compiled(view, { partials: { [partial]: standIn } }).split(mark);
      for (const [i, call] of calls.entries()) {
        // Handlebars indents every line of an indented call's output, the mark's one line included.
        yield parts[i]!.slice(0, parts[i]!.length - call.indent.length);
        yield indented(alone(call.context, { data: call.data }), call.indent);
      }
      yield parts[calls.length]!;
    };
  };
  return set;
}

/** A partial's output as Handlebars indents it for a call that stands indented on its own line. */
function indented(text: string, indent: string): string {
  if (!indent) return text;
  const lines = text.split('\n');
  return lines.map((line, i) => (!line && i + 1 === lines.length ? line : indent + line)).join('\n');
}
