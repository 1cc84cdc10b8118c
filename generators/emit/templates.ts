/**
 * Handlebars, isolated and strict: a template that names a missing field fails generation instead of printing an
 * empty string. Templates are views; what they show is computed by a view function beside each generator.
 */
import Handlebars from 'handlebars';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type Template = (view: object) => string;
export type TemplateSet = (name: string) => Template;

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
  const templates = new Map<string, HandlebarsTemplateDelegate>();
  for (const file of hbsFiles(dir)) {
    const source = readFileSync(join(dir, file), 'utf8');
    const name = file.replace(/\.hbs$/, '');
    if (name.startsWith('_')) handlebars.registerPartial(name.slice(1), source);
    else {
      templates.set(name, handlebars.compile(source, { strict: true, noEscape: !file.endsWith('.html.hbs') }));
    }
  }
  return (name) => {
    const compiled = templates.get(name);
    if (!compiled) throw new Error(`no template ${join(dir, name)}.hbs`);
    return (view) => compiled(view);
  };
}
