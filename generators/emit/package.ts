/** The `package.json` of a generated package: ESM, compiled `dist/` with declarations, sources shipped alongside. */
import type { SpecModel } from '../model/types.ts';
import { isAbsolute, posix, sep } from 'node:path';
import { markdownText } from '../shared/escape.ts';
import { newestSpecVersion } from '../model/versions.ts';
import { headerText } from './header.ts';

export interface PackageFacts {
  header: string;
  name: string;
  version: string;
  description: string;
  /** The description for the README. */
  descriptionMarkdown: string;
  license: string | undefined;
  /** The file `npm pack` writes, which the README tells to install. */
  tarball: string;
  /** The package's folder as the README's `npm install` names it, from where the generator ran (installPath). */
  folder: string;
}

/**
 * What both packages take from the spec: the header naming every document, the version of the API they describe (the
 * highest `info.version`, `0.0.0` when none is semver) and the license, when every document names the same one.
 */
export function packageFacts(model: SpecModel, name: string, description: string, folder: string): PackageFacts {
  const licenses = new Set(model.endpoints.map((endpoint) => endpoint.license));
  const [license] = licenses;
  const version = newestSpecVersion(model).slice(1);
  return {
    header: headerText(model.endpoints.map((e) => e.file)),
    name,
    version,
    description,
    descriptionMarkdown: markdownText(description),
    license: licenses.size === 1 && license ? license : undefined,
    tarball: `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`,
    folder,
  };
}

/** Characters a POSIX shell takes in a word as they are. */
const SHELL_PLAIN = /^[\w@%+=:,./~-]+$/;

/**
 * The package folder `<out>/<artifact>` as a shell word that names it from where the generator ran, as the user wrote
 * `--out`: `./my-api/client`, `../apis/client`, `/tmp/pet/client`. A path that needs quoting is single-quoted; one
 * with a control character (no shell word carries one readably) becomes a placeholder that says what it stands for.
 */
export function installPath(out: string, artifact: string): string {
  const folder = posix.normalize(`${out.split(sep).join('/')}/${artifact}`);
  const word = isAbsolute(out) || folder.startsWith('../') ? folder : `./${folder}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(word)) return `<the ${artifact} folder of the output folder (--out)>`;
  return SHELL_PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

export function packageJson(facts: PackageFacts, dependencies: Record<string, string> = {}): object {
  return {
    '//': facts.header,
    name: facts.name,
    version: facts.version,
    description: facts.description,
    ...(facts.license ? { license: facts.license } : {}),
    type: 'module',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    exports: {
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    },
    files: ['dist', 'src', 'README.md'],
    sideEffects: false,
    engines: { node: '>=22.18.0' },
    ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
  };
}
