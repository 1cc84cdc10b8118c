/** `npm run mock -- [options]` (`--help` lists them): a mock AvalancheGo node simulating one network. */
import { runCli } from './cli-run.ts';

// Imported rather than run, it only compiles: `npm run generate` does so to leave its compiled code in Node's compile
// cache for the first start (generators/cli-mock-caches.ts).
if (import.meta.main) await runCli(process.argv.slice(2));
