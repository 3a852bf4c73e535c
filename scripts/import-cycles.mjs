#!/usr/bin/env node
// The import-cycle step of `npm run check`: no module of electron/, renderer/ or simulator/ may import itself
// through others, type-only imports included (a cycle of types is still a knot in the design). madge reads the
// TypeScript files; it has no reader for Svelte components, so the imports of each component's <script> blocks are
// read with Svelte's own parser and added to madge's graph before the cycles are sought.
// Exit status: 0 no cycle but the known ones below, 1 a new cycle or a known one that is gone.
import { existsSync, statSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { parse } from 'svelte/compiler';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['electron', 'renderer', 'simulator'];

/**
 * Cycles that exist today and are being removed elsewhere, each as its files in import order. A listed cycle that
 * no longer exists fails the check too, so the list cannot outlive the cycles.
 */
const KNOWN_CYCLES = [];

/** The modules a component's <script> and <script module> blocks import (relative paths only). */
function svelteImports(file) {
  const ast = parse(readFileSync(join(ROOT, file), 'utf8'), { modern: true });
  const specifiers = [];
  for (const script of [ast.module, ast.instance]) {
    for (const node of script?.content.body ?? []) {
      if (node.source && /^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type)) {
        specifiers.push(node.source.value);
      }
    }
  }
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

/** The file a relative specifier names, as TypeScript's bundler resolution finds it (relative to ROOT). */
function resolveSpecifier(fromFile, specifier) {
  const base = resolve(ROOT, dirname(fromFile), specifier);
  const candidates = [base, `${base}.ts`, join(base, 'index.ts')];
  // A folder exists too: only a file is a module (a folder's module is its index.ts).
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!found || !/\.(ts|svelte)$/.test(found)) {
    throw new Error(`${fromFile}: cannot resolve '${specifier}'`);
  }
  return relative(ROOT, found);
}

/** A cycle as one string whatever file madge starts it from. */
function cycleKey(files) {
  const start = files.indexOf([...files].sort()[0]);
  return [...files.slice(start), ...files.slice(0, start)].join(' > ');
}

const scanned = await madge(
  FOLDERS.map((folder) => join(ROOT, folder)),
  { baseDir: ROOT, fileExtensions: ['ts', 'svelte'], tsConfig: join(ROOT, 'tsconfig.json') },
);
const graph = scanned.obj();
for (const file of Object.keys(graph).filter((name) => name.endsWith('.svelte'))) {
  const imported = new Set(svelteImports(file).map((specifier) => resolveSpecifier(file, specifier)));
  // A component that renders itself (a tree of fields) imports itself: recursion, not a knot between modules.
  imported.delete(file);
  graph[file] = [...imported];
}
const cycles = (await madge(graph)).circular();

const known = new Set(KNOWN_CYCLES.map(cycleKey));
const found = new Set(cycles.map(cycleKey));
const newCycles = [...found].filter((key) => !known.has(key));
const goneCycles = [...known].filter((key) => !found.has(key));

for (const key of newCycles) console.error(`import cycle: ${key}`);
for (const key of goneCycles) {
  console.error(
    `known cycle no longer there, delete it from KNOWN_CYCLES in scripts/import-cycles.mjs: ${key}`,
  );
}
if (newCycles.length > 0 || goneCycles.length > 0) process.exit(1);
console.log(
  `${Object.keys(graph).length} modules, no import cycle` +
    (known.size > 0 ? ` but ${known.size} known (scripts/import-cycles.mjs)` : ''),
);
