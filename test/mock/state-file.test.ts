/**
 * `--state` files (issue 24 item 13): options checked as the CLI checks its flags before a world is built from them,
 * and a save that replaces the file a link names, atomically, through a temporary name no one can lay a link at.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWorld, saveWorld } from '../../mock/engine/state-file.ts';
import { buildWorld } from '../../mock/world/genesis.ts';

const OPTIONS = { network: 'local', accounts: 1 } as const;

function saved(): {
  dir: string;
  file: string;
  json: { options: Record<string, unknown>; data: Record<string, unknown> };
} {
  const dir = mkdtempSync(join(tmpdir(), 'mock-state-'));
  const file = join(dir, 'world.json');
  saveWorld(buildWorld(OPTIONS), OPTIONS, file);
  return { dir, file, json: JSON.parse(readFileSync(file, 'utf8')) };
}

describe('loading a state file', () => {
  it('refuses options the CLI would refuse, before building anything', () => {
    const { file, json } = saved();
    const write = (options: Record<string, unknown>) =>
      writeFileSync(file, JSON.stringify({ ...json, options: { ...json.options, ...options } }));
    write({ accounts: 5_000_000 });
    expect(() => loadWorld(file)).toThrow(`${file}: accounts must be an integer from 0 to 1000000, not 5000000`);
    write({ utxosPerAccount: 0 });
    expect(() => loadWorld(file)).toThrow(`${file}: utxosPerAccount must be an integer from 1 to 1000000`);
    write({ network: 'devnet' });
    expect(() => loadWorld(file)).toThrow(`${file}: network must be one of local, fuji, mainnet`);
    write({ seed: 7 });
    expect(() => loadWorld(file)).toThrow(`${file}: seed must be a string`);
    writeFileSync(file, '{"version": 2, "options": {}, "data": {"x": {"$n": "1e5"}}}');
    expect(() => loadWorld(file)).toThrow(`${file} is not a world saved by this mock: `);
  });

  it('refuses a chain time past what the node writes (9999-12-31T23:59:59Z)', () => {
    const { file, json } = saved();
    const data = { ...json.data, time: { kind: 'cell', value: { $n: '253402300800' } } };
    writeFileSync(file, JSON.stringify({ ...json, data }));
    expect(() => loadWorld(file)).toThrow(`${file}: time must be a Unix time from 0 to 253402300799`);
  });
});

describe('saving a state file', () => {
  it('replaces the file a link names and keeps the link', () => {
    const { dir, file } = saved();
    const link = join(dir, 'link.json');
    symlinkSync('world.json', link);
    const world = buildWorld(OPTIONS);
    world.time.set(world.time.get() + 60n);
    saveWorld(world, OPTIONS, link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('world.json');
    expect(loadWorld(file)!.world.time.get()).toBe(world.time.get());
    expect(readdirSync(dir).sort()).toEqual(['link.json', 'world.json']);
  });

  it('writes through no link laid at a temporary name it could have used', () => {
    const { dir, file } = saved();
    const decoy = join(dir, 'decoy');
    writeFileSync(decoy, 'untouched');
    // The names a pid-based save used: a link there redirected the write.
    for (const name of [`${file}.${process.pid}.tmp`, `${file}.tmp`]) symlinkSync(decoy, name);
    saveWorld(buildWorld(OPTIONS), OPTIONS, file);
    expect(readFileSync(decoy, 'utf8')).toBe('untouched');
    expect(lstatSync(file).isFile()).toBe(true);
    expect(
      readdirSync(dir).filter((name) => name.endsWith('.tmp') && !lstatSync(join(dir, name)).isSymbolicLink()),
    ).toEqual([]);
  });
});
