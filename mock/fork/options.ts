/**
 * `--fork-url` / `fork: { url, height, cacheDir }`: which live node a world starts from, checked as the other start
 * options are (one rule for the CLI and startMockNode).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ForkOptions {
  /** The live node's base URL, `http(s)://host[:port]` (`--fork-url`); every request of the fork goes there only. */
  url: string;
  /** The P-Chain height to fork at, no later than the source's tip (`--fork-height`; default its tip). */
  height?: number;
  /** Where answers are kept between runs (`--fork-cache-dir`); `false` keeps none (`--no-fork-cache`). */
  cacheDir?: string | false;
}

export interface ResolvedFork {
  url: string;
  height?: number;
  cacheDir: string | undefined;
}

/** ~/.cache/avalanche-mock/fork, or under $XDG_CACHE_HOME when set. */
function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'avalanche-mock', 'fork');
}

/** The fork option checked: a URL of http or https without credentials, a height, a cache folder or false. */
export function checkFork(value: unknown, name: (key: string) => string): ResolvedFork {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`${name('fork')} must be { url, height?, cacheDir? }, not ${JSON.stringify(value)}`);
  const { url, height, cacheDir, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new Error(`${name('fork')}: unknown option ${unknown.join(', ')} (known: url, height, cacheDir)`);
  const text = typeof url === 'string' ? url : '';
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {}
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.search || parsed.hash)
    throw new Error(
      `${name('url')} must be a node's http(s) URL such as http://127.0.0.1:9650, not ${JSON.stringify(url)}`,
    );
  // Credentials in a URL would end up in errors and cache keys: refused rather than kept.
  if (parsed.username || parsed.password) throw new Error(`${name('url')} must not hold a user name or password`);
  if (height !== undefined && !(Number.isSafeInteger(height) && (height as number) >= 0))
    throw new Error(
      `${name('height')} must be a P-Chain height (a whole number from 0), not ${JSON.stringify(height)}`,
    );
  if (cacheDir !== undefined && cacheDir !== false && (typeof cacheDir !== 'string' || cacheDir === ''))
    throw new Error(`${name('cacheDir')} must be a folder or false, not ${JSON.stringify(cacheDir)}`);
  return {
    url: `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`,
    ...(height === undefined ? {} : { height: height as number }),
    cacheDir: cacheDir === false ? undefined : ((cacheDir as string | undefined) ?? defaultCacheDir()),
  };
}
