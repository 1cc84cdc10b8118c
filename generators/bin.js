#!/usr/bin/env node
// `avalanche-openrpc` / `npm run generate`. Node runs the TypeScript sources as they are (its type stripping).
import './compile-cache.js';

await import('./cli.ts');
