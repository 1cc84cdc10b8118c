/**
 * Which files a spec names: a file is itself, a folder its `*.json` endpoint documents (not its sub-folders, which hold
 * what the documents refer to). A folder with none is refused rather than read as a spec without an API, so a YAML
 * spec (OpenRPC documents are published so, e.g. MetaMask's `openrpc.yaml`) never generates empty packages.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SpecError } from '../common/problems.ts';
import { CONFIG_FILE } from './profile.ts';
import { YAML_FILE, displayPath } from './read.ts';

export function specFiles(spec: string | string[] = 'openrpc'): string[] {
  const entries = Array.isArray(spec) ? spec : [spec];
  return entries.flatMap((entry) =>
    existsSync(entry) && statSync(entry).isDirectory() ? documentsIn(entry) : [entry],
  );
}

function documentsIn(folder: string): string[] {
  const names = readdirSync(folder).sort();
  const documents = names.filter((f) => f.endsWith('.json') && f !== CONFIG_FILE);
  if (documents.length > 0) return documents.map((f) => join(folder, f));
  const yaml = names.filter((f) => YAML_FILE.test(f));
  const message =
    yaml.length > 0
      ? `holds no JSON document (*.json); the toolkit reads JSON only, not YAML: convert ${yaml.join(', ')} to JSON`
      : 'holds no OpenRPC document (*.json)';
  throw new SpecError([{ file: `${displayPath(folder) || '.'}/`, pointer: '', message }]);
}
