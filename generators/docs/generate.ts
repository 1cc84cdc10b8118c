/**
 * The docs site: static HTML, one stylesheet and one small script, from the model through templates/docs/. Pages
 * sit side by side in docs/ and link to each other relatively, so the site works from disk (file://) as well as
 * served; it loads nothing from anywhere else. Each endpoint's published OpenRPC document ships with it.
 */
import type { ArtifactContext } from '../artifacts.ts';
import type { GeneratedFile } from '../emit/files.ts';
import { textFile } from '../emit/files.ts';
import type { SpecModel } from '../model/types.ts';
import { publishedFiles } from '../shared/published.ts';
import { allSources, endpointPageView, indexView, pageFile, schemaContext, typesView } from './site-view.ts';

export const DOCS_DIR = 'docs';

/** Templates indent for their readers; blocks that render nothing leave blank, space-filled lines, dropped here. */
function tidy(text: string): string {
  // Each run of blanks is tried from its start only; /[ \t]+$/ alone retries it from every blank, in quadratic time.
  return text.replace(/(?<![ \t])[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n');
}

export async function generateDocs(model: SpecModel, { templates }: ArtifactContext): Promise<GeneratedFile[]> {
  const context = schemaContext(model);
  const page = (path: string, template: string, view: object) =>
    textFile(`${DOCS_DIR}/${path}`, tidy(templates(template)(view)));
  const assetHeader = { source: allSources(model) };
  return [
    page('index.html', 'index.html', indexView(model, context)),
    ...model.endpoints.map((endpoint) =>
      page(pageFile(endpoint), 'endpoint.html', endpointPageView(model, context, endpoint)),
    ),
    page('types.html', 'types.html', typesView(model, context)),
    page('assets/site.css', 'site.css', assetHeader),
    page('assets/site.js', 'site.js', assetHeader),
    page('assets/favicon.svg', 'favicon.svg', assetHeader),
    ...publishedFiles(model, DOCS_DIR),
  ];
}
