/**
 * Rule sets a spec folder opts into. A folder holding `openrpc.config.json` with `{"profile": "avalanche"}` gets this
 * project's authoring rules on top of standard OpenRPC validation, and its generated artifacts the Avalanche-only
 * parts (the node's RPC layer as the server's default profile). Without the file, a document is plain OpenRPC: it is
 * checked against the meta-schema, its references and its examples, and nothing else is asked of it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { displayPath, readJsonFile } from './read.ts';
import { PROFILES, type Profile } from '../common/document.ts';
import { SpecError } from '../common/problems.ts';

export { PROFILES, type Profile };

export const CONFIG_FILE = 'openrpc.config.json';

/**
 * The folder a document's `$ref`s may read from: the nearest folder at or above the document's own that holds an
 * `openrpc.config.json` (a spec tree, e.g. `openrpc/`, whose sub-folders share its files, such as a vendored
 * document), else the document's own folder.
 */
export function specRoot(documentFolder: string): string {
  for (let folder = documentFolder; ; folder = dirname(folder)) {
    if (existsSync(join(folder, CONFIG_FILE))) return folder;
    if (dirname(folder) === folder) return documentFolder;
  }
}

/** The profile the folder of `documentFile` opts into, or undefined for plain OpenRPC. */
export function profileOf(documentFile: string): Profile | undefined {
  const config = join(dirname(documentFile), CONFIG_FILE);
  if (!existsSync(config)) return undefined;
  const value = readJsonFile(config);
  const profile = value !== null && typeof value === 'object' ? (value as Record<string, unknown>).profile : undefined;
  if (profile === undefined) return undefined;
  if (!(PROFILES as readonly unknown[]).includes(profile)) {
    throw new SpecError([
      {
        file: displayPath(config),
        pointer: '/profile',
        message: `unknown profile ${JSON.stringify(profile)}; known: ${PROFILES.join(', ')}`,
      },
    ]);
  }
  return profile as Profile;
}
