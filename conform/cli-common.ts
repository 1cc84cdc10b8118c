/**
 * What `npm run conform`, `npm run proxy` and `npm run mock` share: flags parsed strictly, usage errors with exit
 * code 2, a node's base URL and release checked. Light on purpose: the mock imports it too.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { VERSION_PATTERN } from '../generators/model/versions.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O & typeof HELP; strict: true }>>['values'];

/**
 * Text from a document or a node made safe for a terminal: control characters other than the line break, and
 * bidirectional controls, written as `\uXXXX`, so a spec or an answer can neither drive the terminal (escape
 * sequences that clear the screen or write the clipboard) nor reorder what it shows.
 */
const TERMINAL_CONTROLS =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
export const forTerminal = (text: string): string =>
  text.replace(TERMINAL_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A usage error: the message, then the usage text, and exit code 2. */
export function exitWithUsage(command: string, usage: string, message: string): never {
  process.stderr.write(`${command}: ${forTerminal(message)}\n\n${usage}\n`);
  process.exit(2);
}

/**
 * The command's flags, from `args` (the process's own by default); `--help`/`-h` prints the usage and exits 0. The
 * arguments that are not flags are pushed onto `positionals` when it is given, and refused when not.
 */
export function parseCli<O extends Options>(
  command: string,
  usage: string,
  options: O,
  { args, positionals }: { args?: string[]; positionals?: string[] } = {},
): Values<O> {
  const fail = (message: string) => exitWithUsage(command, usage, message);
  let values: Values<O>;
  try {
    const parsed = parseArgs({
      ...(args ? { args } : {}),
      options: { ...options, ...HELP },
      strict: true,
      allowPositionals: !!positionals,
    });
    positionals?.push(...parsed.positionals);
    values = parsed.values as Values<O>;
  } catch (error) {
    return fail((error as Error).message);
  }
  if ((values as { help?: boolean }).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return values;
}

/** Fails unless `value`, when given, names a release the way `--node-version` (or `flag`) takes it. */
export function optionalNodeVersion(
  value: string | undefined,
  fail: (message: string) => never,
  flag = '--node-version',
): string | undefined {
  if (value !== undefined && !VERSION_PATTERN.test(value)) fail(`${flag} must look like v1.12.1, not "${value}"`);
  return value;
}

/** Fails unless `value` is an http(s) URL. */
export function requireHttpUrl(flag: string, value: string | undefined, fail: (message: string) => never): string {
  if (!value) return fail(`--${flag} is required`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(`--${flag} "${value}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`--${flag} must be http(s), not ${url.protocol}`);
  return value;
}
