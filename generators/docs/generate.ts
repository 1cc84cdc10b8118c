/**
 * The docs site: static HTML from the model through templates/docs/, and one stylesheet and one small script as they
 * are written in ./assets. Pages
 * sit side by side in docs/ and link to each other relatively, so the site works from disk (file://) as well as
 * served; it loads nothing from anywhere else. Each endpoint's published OpenRPC document ships with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactContext } from '../artifacts.ts';
import { type GeneratedFile, textFile } from '../emit/files.ts';
import type { EndpointModel, SpecModel } from '../model/types.ts';
import { commentText } from '../shared/escape.ts';
import { publishedFiles } from '../shared/published.ts';
import { allSources, endpointPageView, indexView, pageFile, schemaContext, typesView } from './site-view.ts';
import { tidy } from './tidy.ts';

export const DOCS_DIR = 'docs';
const ASSETS = join(import.meta.dirname, 'assets');

export async function generateDocs(model: SpecModel, { templates }: ArtifactContext): Promise<GeneratedFile[]> {
  const context = schemaContext(model);
  const page = (path: string, template: string, view: object) =>
    textFile(`${DOCS_DIR}/${path}`, tidy(templates(template)(view)));
  const endpointPage = (endpoint: EndpointModel) =>
    page(pageFile(endpoint), 'endpoint.html', endpointPageView(model, context, endpoint));
  const assetHeader = { source: allSources(model) };
  // The site's script and styles are ordinary files, linted as the toolkit is; only their header comment is per spec
  // (the script's a line comment, so that it stays within 120 columns as the generated code does).
  const asset = (name: string) => {
    const header = name.endsWith('.js')
      ? `// ${commentText(assetHeader.source)}`
      : `/* ${assetHeader.source.replaceAll('*/', '* /')} */`;
    return textFile(`${DOCS_DIR}/assets/${name}`, tidy(`${header}\n${readFileSync(join(ASSETS, name), 'utf8')}`));
  };
  return [
    page('index.html', 'index.html', indexView(model, context)),
    ...model.endpoints.map(endpointPage),
    page('types.html', 'types.html', typesView(model, context)),
    asset('site.css'),
    asset('site.js'),
    page('assets/favicon.svg', 'favicon.svg', assetHeader),
    ...publishedFiles(model, DOCS_DIR),
  ];
}
