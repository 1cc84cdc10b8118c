/** The published spec: one self-contained OpenRPC document per endpoint (shared/published.ts). */
import type { GeneratedFile } from '../emit/files.ts';
import type { SpecModel } from '../model/types.ts';
import { publishedFiles } from '../shared/published.ts';

export function generateOpenrpc(model: SpecModel): GeneratedFile[] {
  return publishedFiles(model);
}
