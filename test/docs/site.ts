/** Shared by the docs tests: build a site into a temporary folder, and read generated HTML without a browser. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GeneratedFile } from '../../generators/emit/files.ts';
import { writeOutput } from '../../generators/emit/output.ts';
import type { SpecModel } from '../../generators/model/types.ts';
import { loadModel, renderArtifacts } from '../../generators/pipeline.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SPECS = {
  real: join(ROOT, 'openrpc'),
  demo: join(ROOT, 'test/fixtures/spec/valid'),
  hostile: join(ROOT, 'test/fixtures/docs/hostile.json'),
} as const;

export interface BuiltSite {
  model: SpecModel;
  files: GeneratedFile[];
  /** The folder holding index.html. */
  dir: string;
  page: (name: string) => string;
}

export async function renderDocs(model: SpecModel): Promise<GeneratedFile[]> {
  return renderArtifacts(model, { artifacts: ['docs'] });
}

export async function buildSite(spec: string): Promise<BuiltSite> {
  const model = loadModel(spec);
  const files = await renderDocs(model);
  const out = mkdtempSync(join(tmpdir(), 'docs-site-'));
  writeOutput(out, files, 'docs test site');
  const byPath = new Map(files.map((file) => [file.path, file.contents]));
  return {
    model,
    files,
    dir: join(out, 'docs'),
    page: (name) => {
      const contents = byPath.get(`docs/${name}`);
      if (contents === undefined) throw new Error(`no page docs/${name}`);
      return contents;
    },
  };
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#96': '`',
  '#61': '=',
  '#x27': "'",
  '#x60': '`',
  '#x3D': '=',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#?[a-zA-Z0-9]+);/g, (whole, name: string) => ENTITIES[name] ?? whole);
}

/** The text a reader sees in an HTML fragment: tags dropped, entities decoded. */
export function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''));
}

/** Every value of an attribute in the page (the generator always double-quotes attributes). */
export function attributeValues(html: string, attribute: string): string[] {
  return [...html.matchAll(new RegExp(`\\s${attribute}="([^"]*)"`, 'g'))].map((match) => decodeEntities(match[1]!));
}

/** The text of every `<pre>` whose figure caption is `caption` (Request, Response, curl, TypeScript). */
export function codeBlocks(html: string, caption: string): string[] {
  const pattern = /<figcaption>(.*?)<\/figcaption><pre[^>]*><code>([\s\S]*?)<\/code><\/pre>/g;
  return [...html.matchAll(pattern)].filter((match) => textOf(match[1]!) === caption).map((match) => textOf(match[2]!));
}

/** The HTML of one method's section. */
export function methodSection(html: string, methodName: string): string {
  // The section's id may be followed by the release attributes (data-since, ...).
  const at = (suffix: string) => html.indexOf(`" id="${methodName}"${suffix}`);
  const start = Math.max(at('>'), at(' data-'));
  const end = html.indexOf('</section>', start);
  if (start < 0 || end < 0) throw new Error(`no section for ${methodName}`);
  return html.slice(html.lastIndexOf('<section', start), end);
}
