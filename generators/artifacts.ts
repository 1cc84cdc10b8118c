/** Every artifact the toolkit generates, in output order. Each is a pure function of the model. */
import { generateClient } from './client/generate.ts';
import { generateDocs } from './docs/generate.ts';
import type { GeneratedFile } from './emit/files.ts';
import type { TemplateSet } from './emit/templates.ts';
import type { SpecModel } from './model/types.ts';
import { generateServer } from './server/generate.ts';
import { publishedFiles } from './shared/published.ts';

export interface ArtifactContext {
  templates: TemplateSet;
  /** The output folder as given (`--out`), which the packages' READMEs name when they say how to install them. */
  out: string;
}

export interface Artifact {
  name: string;
  generate: (model: SpecModel, context: ArtifactContext) => GeneratedFile[] | Promise<GeneratedFile[]>;
}

export const ARTIFACTS: Artifact[] = [
  { name: 'openrpc', generate: (model) => publishedFiles(model) },
  { name: 'client', generate: generateClient },
  { name: 'server', generate: generateServer },
  { name: 'docs', generate: generateDocs },
];
