/**
 * Which file a `$ref` may read: only regular files inside the spec's folder, never a URL, a path out through `../` or
 * an absolute path, nor a symlink that leads out (the few URLs of known-schemas.ts read the toolkit's own copy). A refusal names the reference, never what it points at outside.
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { knownSchemaName } from './known-schemas.ts';
import { displayPath, notRegular } from './read.ts';

/** The spec's folder as written and as the file system resolves it (through symlinks). */
export interface SpecFolder {
  path: string;
  real: string;
}

/** A reference with a scheme (`https:`, `file:`, `urn:`): never read, only files inside the spec folder are. */
export const isUrl = (ref: string) => /^[a-z][a-z0-9+.-]*:/i.test(ref);

const inside = (base: string, path: string) => {
  const rel = relative(base, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/**
 * The file that `path` (the part of `ref` before `#`, written in `currentFile`) names, or why it is refused. An empty
 * path is the current file.
 */
export function refFile(
  ref: string,
  path: string,
  currentFile: string,
  folder: SpecFolder,
): { file: string } | { refused: string } {
  if (path === '') return { file: currentFile };
  if (isUrl(path))
    return knownSchemaName(path)
      ? { file: path }
      : { refused: `$ref "${ref}" is a URL; only files inside the spec folder are read` };
  let decoded: string;
  try {
    decoded = decodeURI(path);
  } catch {
    return { refused: `$ref "${ref}" has a malformed percent-encoding` };
  }
  const target = resolve(dirname(currentFile), decoded);
  let real: string | undefined;
  try {
    real = realpathSync(target);
  } catch {
    real = undefined;
  }
  if (!inside(folder.path, target) || (real !== undefined && !inside(folder.real, real))) {
    const folderName = displayPath(folder.path) || '.';
    return { refused: `$ref "${ref}" points outside the spec folder ${folderName}; only files inside it are read` };
  }
  let kind: string | undefined;
  try {
    kind = notRegular(statSync(target));
  } catch {
    kind = undefined; // no such file: the bundler names the broken reference
  }
  if (kind) return { refused: `$ref "${ref}" names ${displayPath(target)}, which is ${kind}, not a regular file` };
  return { file: target };
}
