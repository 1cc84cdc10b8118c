/**
 * `--state <file>`: the world saved as JSON on exit and loaded at start-up. Every journaled table, cell and log of the
 * world is written (bigints and bytes tagged), but for the mempools (withoutMempools); a load rebuilds the network's
 * genesis from the saved options, checks that the saved chains grow from it, and puts the saved records in place.
 * Funded keys are not written: the seed derives them again. Nothing of the keystore is: its passwords never reach a
 * file.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type WorldOptions, buildWorld } from '../world/genesis.ts';
import { Cell, Log, Table } from '../world/journal.ts';
import { LAST_RFC3339_SECOND } from '../world/reads.ts';
import { checkWorldOptions } from '../world/world-options.ts';
import type { World } from '../world/world.ts';

/**
 * Bumped whenever the world gains or loses a journaled part (2: L1 expiries and the validator-set history; 3: the
 * indexes; 4: nodes' connections and uptimes; 5: the C-Chain, its blocks in the C/block index and its edits; 6: the
 * C-Chain's pending transactions; 7: the C-Chain's blocks name coreth's coinbase, so an older file's replay into other
 * hashes; 8: the P-Chain holds the genesis chains' CreateChainTxs, which an older file's tables would drop), so a file from an older mock is refused with a clear message instead of half loading.
 */
const VERSION = 8;

/** Reads the holder's own value: JSON.stringify hands a replacer a Buffer already turned into `{ type, data }`. */
function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (typeof value === 'bigint') return { $n: value.toString() };
  if (raw instanceof Uint8Array) return { $b: Buffer.from(raw).toString('hex') };
  return value;
}
const reviver = (_: string, value: unknown) => {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$n') return BigInt((value as { $n: string }).$n);
    if (keys.length === 1 && keys[0] === '$b') return new Uint8Array(Buffer.from((value as { $b: string }).$b, 'hex'));
  }
  return value;
};

type Stored =
  | { kind: 'table'; entries: Array<[unknown, unknown]> }
  | { kind: 'cell'; value: unknown }
  | { kind: 'log'; items: unknown[] };

/**
 * A part as a saved state holds it: without the mempools. anvil's SerializableState (crates/anvil/src/eth/backend/
 * db.rs) holds accounts, blocks and mined transactions, never its pool, and a node's mempools live in memory only
 * (vms/txs/mempool, vms/platformvm/txs/mempool, coreth's txpool and atomic mempool, each with its drop cache): the X-
 * and P-Chain's pooled (Processing) and dropped txs and the EVM's pool are left out (the atomic pool is no part of the
 * world). Left out on load too, so a state an older mock saved with its pools loads without them.
 */
function withoutMempools(path: string, stored: Stored): Stored {
  if (stored.kind !== 'table' || !Array.isArray(stored.entries)) return stored;
  if (path === 'cChainPool') return { kind: 'table', entries: [] };
  if (path !== 'txs') return stored;
  const pooled = (entry: unknown) => {
    const status = Array.isArray(entry) ? (entry[1] as { status?: unknown } | null)?.status : undefined;
    return status === 'Processing' || status === 'Dropped';
  };
  return { kind: 'table', entries: stored.entries.filter((entry) => !pooled(entry)) };
}

/** The world's journaled parts by property path (`utxos.X`, `time`, ...). */
function parts(world: World): Array<[string, Table<unknown, unknown> | Cell<unknown> | Log<unknown>]> {
  const out: Array<[string, Table<unknown, unknown> | Cell<unknown> | Log<unknown>]> = [];
  const visit = (path: string, value: unknown, depth: number) => {
    if (value instanceof Table || value instanceof Cell || value instanceof Log) out.push([path, value as never]);
    else if (depth === 0 && value && typeof value === 'object' && !Array.isArray(value))
      for (const [k, v] of Object.entries(value)) visit(`${path}.${k}`, v, 1);
  };
  for (const [key, value] of Object.entries(world)) visit(key, value, 0);
  return out;
}

/** The world in the one saved format: what `--state` writes and `dev.dumpState` answers. */
export function stateOf(world: World, options: WorldOptions = {}): string {
  if (world.fork)
    throw new Error(
      `a world forked from ${world.fork.source.url} cannot be saved: most of its state is still at the source ` +
        '(nothing was written)',
    );
  const data: Record<string, Stored> = {};
  for (const [path, part] of parts(world)) {
    if (part instanceof Table) data[path] = withoutMempools(path, { kind: 'table', entries: [...part.entries()] });
    else if (part instanceof Cell) data[path] = { kind: 'cell', value: part.get() };
    else data[path] = { kind: 'log', items: Array.from({ length: part.length }, (_, i) => part.at(i)) };
  }
  const saved = { network: world.network.name, seed: world.seed, ...world.funding, ...options };
  const { accounts, network, seed, utxosPerAccount } = saved;
  return JSON.stringify({ version: VERSION, options: { accounts, network, seed, utxosPerAccount }, data }, replacer);
}

export function saveWorld(world: World, options: WorldOptions, file: string): void {
  writeAtomically(file, stateOf(world, options));
}

/** The file a path names, through any symbolic links (to a file that may not exist yet). */
function target(file: string): string {
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      if (!lstatSync(path).isSymbolicLink()) return path;
      link = readlinkSync(path);
    } catch {
      return path;
    }
    path = resolve(dirname(path), link);
  }
  throw new Error(`${file}: too many levels of symbolic links`);
}

/**
 * Replaces the file `file` names, following a link to it, by a rename in its own folder: a reader sees the old world
 * or the new one whole. The temporary file's name cannot be guessed and is created only if absent, so no link laid
 * in advance redirects the write.
 */
function writeAtomically(file: string, text: string): void {
  const path = target(file);
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(12).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: 'wx', mode: 0o600 });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * A world built from a saved state (`source` names it in errors): its genesis from the saved options, checked as the
 * CLI's flags are, then every saved record in place. Throws, naming what is wrong, when the text is not a saved world.
 */
export function worldOf(text: string, source: string): { world: World; options: WorldOptions } {
  let saved: { version?: number; options?: Record<string, unknown>; data?: Record<string, Stored> };
  try {
    saved = JSON.parse(text, reviver);
  } catch (error) {
    throw new Error(`${source} is not a world saved by this mock: ${(error as Error).message}`);
  }
  if (saved && typeof saved.version === 'number' && saved.version < VERSION && saved.data)
    throw new Error(
      `${source} was saved by an older mock (state version ${saved.version}; this one reads version ${VERSION}, ` +
        "whose P-Chain holds the X- and C-Chain's genesis transactions): " +
        'start without it, or delete it to save a new one',
    );
  if (!saved || saved.version !== VERSION || !saved.data || typeof saved.options !== 'object' || !saved.options)
    throw new Error(`${source} is not a world saved by this mock (version ${VERSION})`);
  // The options the CLI's flags would refuse are refused here too, before a world is built from them.
  const options = checkWorldOptions(saved.options, (key) => `${source}: ${key}`);
  const world = buildWorld(options);
  for (const [path, part] of parts(world)) {
    if (!saved.data[path]) throw new Error(`${source} has no ${path}`);
    const stored = withoutMempools(path, saved.data[path]);
    if (part instanceof Table && stored.kind === 'table') {
      for (const key of [...part.keys()]) part.delete(key);
      for (const [key, value] of stored.entries) part.set(key, value);
    } else if (part instanceof Cell && stored.kind === 'cell') part.set(stored.value);
    else if (part instanceof Log && stored.kind === 'log') {
      for (let i = 0; i < part.length; i++) {
        if ((part.at(i) as { id?: string }).id !== (stored.items[i] as { id?: string } | undefined)?.id)
          throw new Error(`${source} holds another network's ${path} (block ${i} differs)`);
      }
      for (const item of stored.items.slice(part.length)) part.push(item);
    } else throw new Error(`${source}: ${path} is not a ${stored.kind}`);
  }
  const time = world.time.get();
  if (typeof time !== 'bigint' || time < 0n || time > LAST_RFC3339_SECOND)
    throw new Error(`${source}: time must be a Unix time from 0 to ${LAST_RFC3339_SECOND}`);
  world.journal.clear();
  return { world, options };
}

/** The world saved in `file`, or undefined when there is no such file. Throws when the file is not a saved world. */
export function loadWorld(file: string): { world: World; options: WorldOptions } | undefined {
  if (!existsSync(file)) return undefined;
  return worldOf(readFileSync(file, 'utf8'), file);
}

/**
 * Puts a loaded world's state in place of `target`'s, as journaled changes (a snapshot taken before can revert it).
 * The source is a complete world already checked, so nothing can fail half-way. Both are of one network.
 */
export function replaceWorld(into: World, source: World): void {
  if (into.fork) throw new Error(`this node's world is forked from ${into.fork.source.url}: no state can replace it`);
  if (into.network.name !== source.network.name)
    throw new Error(`the state is of the ${source.network.name} network; this node serves ${into.network.name}`);
  const from = new Map(parts(source));
  for (const [path, part] of parts(into)) {
    const other = from.get(path)!;
    if (part instanceof Table && other instanceof Table) {
      for (const key of [...part.keys()]) if (!other.has(key)) part.delete(key);
      for (const [key, value] of other.entries()) if (part.get(key) !== value) part.set(key, value);
    } else if (part instanceof Cell && other instanceof Cell) part.set(other.get());
    else if (part instanceof Log && other instanceof Log) {
      let same = 0;
      while (same < part.length && same < other.length && part.at(same) === other.at(same)) same++;
      part.truncate(same);
      for (let i = same; i < other.length; i++) part.push(other.at(i));
    }
  }
  into.seed = source.seed;
  into.funding = source.funding;
  into.accounts.splice(0, into.accounts.length, ...source.accounts);
}
