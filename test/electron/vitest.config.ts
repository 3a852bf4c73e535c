import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The Electron smoke test alone (`npm run test:electron`, scripts/test-electron.mjs): kept out of the root
 * vitest.config.ts, and so out of `npm test`, because it needs the Electron runtime and a display.
 */
export default defineConfig({
  test: {
    root: join(import.meta.dirname, '..', '..'),
    include: ['test/electron/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
