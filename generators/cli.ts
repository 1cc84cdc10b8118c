#!/usr/bin/env node
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec, SpecError } from './load/index.ts';

const specDir = 'openrpc';
const files = readdirSync(specDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(specDir, f));
try {
  const bundles = loadSpec(files);
  const count = bundles.reduce((n, b) => n + (b.document.methods as unknown[]).length, 0);
  console.log(`spec ok: ${bundles.length} documents, ${count} methods`);
} catch (error) {
  if (error instanceof SpecError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
