import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-bundle-'));
  execFileSync(process.execPath, [join(ROOT, 'build', 'bundle-electron.mjs'), '--outdir', folder], {
    stdio: 'pipe',
  });
}, 60_000);

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('Electron bundles', () => {
  it('makes the preload one CommonJS file that requires nothing but electron (a sandboxed preload can load no more)', async () => {
    const preload = await readFile(join(folder, 'preload', 'index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');
  });

  it('makes the main process an ES module that leaves dependencies in node_modules', async () => {
    const main = await readFile(join(folder, 'main', 'index.js'), 'utf8');
    expect(main).toMatch(/from "electron"/);
    expect(main).toMatch(/from "zod"/);
    expect(main).not.toContain('module.exports');
  });
});
