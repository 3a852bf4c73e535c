#!/usr/bin/env node
// `npm run check`: format check, lint, types (tsc and svelte-check), dead code (knip), import cycles, file lengths,
// the message catalogue, the Electron security scan, then every test.
// Stops at the first step that fails and says which one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(ROOT, 'node_modules', '.bin', name);

const steps = [
  ['setup', process.execPath, [join(ROOT, 'scripts', 'ensure.mjs'), '--quiet']],
  ['format', bin('prettier'), ['--check', '.']],
  ['lint', bin('eslint'), ['--max-warnings', '0', '.']],
  ['types', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']],
];
if (existsSync(join(ROOT, 'renderer', 'tsconfig.json'))) {
  steps.push([
    'svelte-check',
    bin('svelte-check'),
    ['--tsconfig', 'renderer/tsconfig.json', '--fail-on-warnings'],
  ]);
}
// Dead code and dependencies (knip.jsonc), then import cycles over electron/, renderer/ and simulator/.
steps.push(['dead code', bin('knip'), ['--no-progress']]);
steps.push(['import cycles', process.execPath, [join(ROOT, 'scripts', 'import-cycles.mjs')]]);
// No source file over 500 lines (tests not counted).
steps.push(['file lengths', process.execPath, [join(ROOT, 'scripts', 'file-lengths.mjs')]]);
// Every message in every language, with the same placeholders (CONTRIBUTING.md, "Words on screen").
steps.push(['messages', process.execPath, [join(ROOT, 'scripts', 'messages.mjs')]]);
if (existsSync(join(ROOT, 'scripts', 'security-scan.mjs'))) {
  steps.push(['security', process.execPath, [join(ROOT, 'scripts', 'security-scan.mjs')]]);
}
if (!process.argv.includes('--no-test'))
  steps.push(['test', process.execPath, [join(ROOT, 'scripts', 'test.mjs')]]);

for (const [name, command, args] of steps) {
  console.log(`\n── check: ${name}`);
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\ncheck failed at step "${name}"`);
    process.exit(result.status ?? 1);
  }
}
console.log('\ncheck passed');
