#!/usr/bin/env node
/** `avalanche-mock`: the packaged mock's command line (the flags of `npm run mock`). */
import { loadCore } from './load.ts';

await loadCore().runCli(process.argv.slice(2), 'avalanche-mock');
