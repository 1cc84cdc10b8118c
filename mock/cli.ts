/** `npm run mock -- [options]` (`--help` lists them): a mock AvalancheGo node simulating one network. */
import { runCli } from './cli-run.ts';

await runCli(process.argv.slice(2));
