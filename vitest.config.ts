import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generation, npm pack and browser tests are slow on a shared 2-core machine; time limits here guard hangs, not
    // speed.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
