/**
 * `--watch`: run again after every save to the spec or the templates. chokidar watches the folders rather than the
 * files, so saves that replace a file (`sed -i`, editors' write-to-temp-then-rename, `mv`) are seen as well as
 * in-place writes; recursive `fs.watch` loses track of a file once its inode is replaced. Saves that arrive while a
 * run is under way start one more run after it, so the last save is always the one generated.
 */
import { relative, resolve } from 'node:path';
import { watch } from 'chokidar';
import { forTerminal } from '../conform/cli-common.ts';

/** Only these files feed a run; editors' swap and backup files, `sed`'s temp files and the like do not. */
const INPUT = /\.(json|hbs)$/;
/** Saves closer together than this are one run. */
const SETTLE_MS = 100;

type Kind = 'changed' | 'added' | 'removed';
const KINDS: Record<string, Kind> = {
  change: 'changed',
  add: 'added',
  unlink: 'removed',
  addDir: 'added',
  unlinkDir: 'removed',
};

export interface WatchOptions {
  paths: string[];
  /** A folder never to watch (the output, when it lies inside a watched folder). */
  ignore?: string;
  run: () => Promise<boolean>;
}

/** Watches until the process ends. */
export async function watchAndRun({ paths, ignore, run }: WatchOptions): Promise<void> {
  const log = (text: string) => console.log(forTerminal(text));
  const ignored = ignore ? resolve(ignore) : undefined;
  const watcher = watch(paths, {
    ignoreInitial: true,
    ignored: (path) => ignored !== undefined && (resolve(path) === ignored || resolve(path).startsWith(`${ignored}/`)),
  });
  let pending = new Map<string, Kind>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let runs = 0;

  const start = async (): Promise<void> => {
    if (running || pending.size === 0) return;
    running = true;
    const changes = pending;
    pending = new Map();
    log(`${[...changes].map(([path, kind]) => `${relative(process.cwd(), path) || path} ${kind}`).join(', ')}`);
    const began = performance.now();
    let ok = false;
    try {
      ok = await run();
    } catch (error) {
      log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
    const ms = Math.round(performance.now() - began);
    runs += 1;
    log(
      ok
        ? `run ${runs} done in ${ms} ms; watching`
        : `run ${runs} failed in ${ms} ms; still watching, fix and save again`,
    );
    running = false;
    if (pending.size > 0) schedule();
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void start(), SETTLE_MS);
  };

  watcher.on('all', (event, path) => {
    const kind = KINDS[event];
    if (!kind || (!event.endsWith('Dir') && !INPUT.test(path))) return;
    // A file removed and added again within one run is a change.
    pending.set(path, pending.has(path) && pending.get(path) !== kind ? 'changed' : kind);
    schedule();
  });
  watcher.on('error', (error) => log(`watch error: ${error instanceof Error ? error.message : String(error)}`));
  await new Promise<void>((ready) => watcher.once('ready', () => ready()));
  log(`watching ${paths.join(', ')}`);
}
