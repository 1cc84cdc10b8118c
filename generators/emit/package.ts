/** The `package.json` of a generated package: ESM, compiled `dist/` with declarations, sources shipped alongside. */
export interface PackageFacts {
  header: string;
  name: string;
  version: string;
  description: string;
  license: string | undefined;
}

export function packageJson(facts: PackageFacts): object {
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
    engines: { node: '>=20' },
  };
}
