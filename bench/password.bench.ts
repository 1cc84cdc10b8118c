/**
 * `keystore.createUser`'s password rule (mock/password.ts, @zxcvbn-ts/core as published over the node's 50 bytes):
 * the cost of scoring one password the mock has not seen, by kind, in CPU time of this process (wall time on a shared
 * machine mostly measures the neighbours). The library as published, by issue 25's choice: the mock's own matching
 * and scoring (about 400 lines) scored in 1-3 ms; the library takes tens of ms on long passwords.
 */
import { passwordScore } from '../mock/password.ts';
import { median } from './median.ts';

const CALLS = 60;

/** A seeded generator (mulberry32), so every run scores the same passwords. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(14);
const pick = (n: number, alphabet: string) =>
  Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
const WORDS = ['correct', 'horse', 'battery', 'staple', 'password', 'dragon', 'monkey', 'letmein', 'sunshine'];
const KINDS: Record<string, () => string> = {
  'short (12 letters and digits)': () => pick(12, 'abcdefghijklmnopqrstuvwxyz0123456789'),
  'words (5 dictionary words and digits)': () =>
    `${Array.from({ length: 5 }, () => WORDS[Math.floor(next() * WORDS.length)]).join('')}${pick(3, '0123456789')}`,
  'long (60 mixed characters)': () => pick(60, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'),
  'l33t (60 characters of substitutions)': () => pick(60, 'p@55w0rd4$3!1|7abcelost'),
  'symbols (60)': () => pick(60, '!@#$%^&*()_+-=[]{}|;:,.<>?/~`'),
  'very long (1,000 letters)': () => pick(1000, 'abcdefghijklmnopqrstuvwxyz'),
};

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Per-call CPU ms of `score` over CALLS passwords of the kind, measured in batches of 10 (cpuUsage is coarse). */
function measure(score: (password: string) => number, passwords: string[]): { median: number; worst: number } {
  const batches: number[] = [];
  for (let i = 0; i < passwords.length; i += 10) {
    const started = cpuMs();
    for (const password of passwords.slice(i, i + 10)) score(password);
    batches.push((cpuMs() - started) / 10);
  }
  return { median: median(batches), worst: Math.max(...batches) };
}

export default async function bench(): Promise<void> {
  const started = performance.now();
  passwordScore('load the dictionaries');
  console.log(`first call (loads the dictionaries): ${(performance.now() - started).toFixed(0)} ms`);
  for (const [kind, make] of Object.entries(KINDS)) {
    const { median, worst } = measure(passwordScore, Array.from({ length: CALLS }, make));
    console.log(`${kind}: ${median.toFixed(2)} ms CPU per call (worst batch ${worst.toFixed(2)}); target < 5 ms`);
  }
}
