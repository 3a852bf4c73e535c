import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// Three projects, one per folder: `npm test` runs them all, `npm test -- --project unit` only the unit tests.
// Unit tests spawn no process and build nothing; a test that does belongs in integration (or e2e, with Chromium).
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // The formatter's locale, fixed for the tests (the zone stays the machine's).
    setupFiles: ['test/helpers/format-locale.ts'],
    projects: [
      // Svelte's plugin compiles the renderer's rune modules (`*.svelte.ts`) that unit tests import.
      { extends: true, plugins: [svelte()], test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
