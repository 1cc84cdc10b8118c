/** Every artifact the toolkit generates, in output order. Each is a pure function of the model. */
import { generateClient } from './client/generate.ts';
import { generateDocs } from './docs/generate.ts';
import type { OutputFile } from './emit/files.ts';
import type { TemplateSet } from './emit/templates.ts';
import type { SpecModel } from './model/types.ts';
import { generateOpenrpc } from './openrpc/generate.ts';
import { generateServer } from './server/generate.ts';

export interface ArtifactContext {
  templates: TemplateSet;
}

export interface Artifact {
  name: string;
  generate: (model: SpecModel, context: ArtifactContext) => OutputFile[] | Promise<OutputFile[]>;
  /** Uses the compiler threads (emit/typescript.ts): the pipeline starts them before loading the spec. */
  compiles?: boolean;
}

export const ARTIFACTS: Artifact[] = [
  { name: 'openrpc', generate: (model) => generateOpenrpc(model) },
  { name: 'client', generate: generateClient, compiles: true },
  { name: 'server', generate: generateServer, compiles: true },
  { name: 'docs', generate: generateDocs },
];
