/** The published spec: one self-contained OpenRPC document per endpoint (shared/published.ts). */
import type { GeneratedFile } from '../emit/files.ts';
import { jsonFile } from '../emit/files.ts';
import type { SpecModel } from '../model/types.ts';
import { publishedDocument, publishedPath } from '../shared/published.ts';

export function generateOpenrpc(model: SpecModel): GeneratedFile[] {
  return model.endpoints.map((endpoint) => jsonFile(publishedPath(endpoint), publishedDocument(endpoint)));
}
