#!/usr/bin/env node
// The file-length step of `npm run check`: fails listing each source file over MAX_LINES lines, so that no file
// grows past what a reader takes in (CONTRIBUTING.md, "Check"). Sources are the .ts, .svelte and .mjs files under
// electron/, renderer/, simulator/, scripts/ and build/; test files (*.test.ts, which live in test/ anyway) are not
// counted, since a test file's length follows the behaviours it pins, one `it` each.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const MAX_LINES = 500;
const FOLDERS = ['electron', 'renderer', 'simulator', 'scripts', 'build'];
const SOURCE = /\.(ts|svelte|mjs)$/;
const TEST = /\.test\.ts$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'out', 'dist']);

// Files allowed over the limit while a split is under way; a listed file that is no longer too long fails the
// check too, so the list only shrinks. Empty: every source file is within the limit.
const BEING_SPLIT = new Set([]);

/** Every source file under `folder`, as a path from the repository. */
function sources(folder) {
  const found = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...sources(path));
    } else if (SOURCE.test(entry.name) && !TEST.test(entry.name)) found.push(path);
  }
  return found;
}

/** Lines of a file as an editor numbers them (a final newline ends the last line, it does not start one). */
function lineCount(path) {
  const text = readFileSync(join(ROOT, path), 'utf8');
  if (text.length === 0) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

const lengths = new Map(FOLDERS.flatMap(sources).map((path) => [path, lineCount(path)]));
const tooLong = [...lengths]
  .filter(([path, lines]) => lines > MAX_LINES && !BEING_SPLIT.has(path))
  .map(([path, lines]) => `${path}: ${lines} lines`);
const noLongerLong = [...BEING_SPLIT].filter((path) => (lengths.get(path) ?? 0) <= MAX_LINES);

if (tooLong.length > 0) {
  console.error(`Files over ${MAX_LINES} lines: split each along a seam (one concern per file).`);
  for (const line of tooLong) console.error(`  ${line}`);
}
if (noLongerLong.length > 0) {
  console.error(
    `Listed as being split but ${MAX_LINES} lines or fewer: remove from BEING_SPLIT in scripts/file-lengths.mjs.`,
  );
  for (const path of noLongerLong) console.error(`  ${path}`);
}
if (tooLong.length > 0 || noLongerLong.length > 0) process.exit(1);
console.log(`no source file over ${MAX_LINES} lines`);
