import type { ArtifactContext } from '../artifacts.ts';
import type { GeneratedFile } from '../emit/files.ts';
import type { SpecModel } from '../model/types.ts';

export async function generateClient(_model: SpecModel, _context: ArtifactContext): Promise<GeneratedFile[]> {
  return [];
}
