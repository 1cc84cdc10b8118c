/** The toolkit as a library: `generate()` for build steps, and the pieces it is made of. */
export {
  DEFAULT_TEMPLATES,
  generate,
  loadModel,
  renderArtifacts,
  specFiles,
  type GenerateOptions,
  type GenerateResult,
} from './pipeline.ts';
export { loadSpec, SpecError, type SpecProblem } from './load/index.ts';
export { renderTypes, type RenderedTypes } from './types/index.ts';
export type { GeneratedFile } from './emit/files.ts';
export type { CheckReport, WriteReport } from './emit/output.ts';
export type * from './model/types.ts';
