import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildHostBundle, isHostBundleFresh } from '../../../build/host-bundle.mjs';
import { ROOT } from '../../../build/stale.mjs';

let folder: string;
let bundle: string;
let manifest: string;
let source: string;

// Inside the checkout's out/ (ignored by git), where a built bundle can resolve node_modules.
beforeEach(async () => {
  folder = await mkdtemp(join(ROOT, 'out', 'test-host-bundle-'));
  bundle = join(folder, 'host', 'cli.mjs');
  manifest = join(folder, 'host', 'cli.inputs.json');
  source = join(folder, 'source.ts');
  await writeFile(source, 'export const answer = 42;\n');
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A bundle file and a manifest recording `source` as it is now. */
async function recordBundle(): Promise<void> {
  await mkdir(join(folder, 'host'), { recursive: true });
  await writeFile(bundle, '// bundle\n');
  const stats = await stat(source);
  await writeFile(manifest, JSON.stringify({ inputs: { [source]: [stats.mtimeMs, stats.size] } }));
}

describe('isHostBundleFresh', () => {
  it('counts a bundle without a manifest as stale', async () => {
    await recordBundle();
    await rm(manifest);
    expect(isHostBundleFresh(bundle, manifest)).toBe(false);
  });

  it('counts a bundle as fresh while every recorded input keeps its time and size', async () => {
    await recordBundle();
    expect(isHostBundleFresh(bundle, manifest)).toBe(true);
  });

  it('counts a bundle as stale once an input was edited, even to the same size', async () => {
    await recordBundle();
    const later = new Date(Date.now() + 5_000);
    await writeFile(source, 'export const answer = 43;\n');
    await utimes(source, later, later);
    expect(isHostBundleFresh(bundle, manifest)).toBe(false);
  });

  it('counts a bundle as stale when an input went back in time (a checkout of older sources)', async () => {
    await recordBundle();
    const earlier = new Date(Date.now() - 86_400_000);
    await utimes(source, earlier, earlier);
    expect(isHostBundleFresh(bundle, manifest)).toBe(false);
  });

  it('counts a bundle as stale when an input is gone', async () => {
    await recordBundle();
    await rm(source);
    expect(isHostBundleFresh(bundle, manifest)).toBe(false);
  });

  it('counts a missing bundle as stale whatever the manifest says', async () => {
    await recordBundle();
    await rm(bundle);
    expect(isHostBundleFresh(bundle, manifest)).toBe(false);
  });
});

describe('buildHostBundle', () => {
  let buildFolder: string;
  let built: { path: string; inputs: string[] };

  beforeAll(async () => {
    buildFolder = await mkdtemp(join(ROOT, 'out', 'test-host-bundle-'));
    const host = join(buildFolder, 'host');
    built = await buildHostBundle(join(host, 'cli.mjs'), join(host, 'cli.inputs.json'));
  });

  afterAll(async () => {
    await rm(buildFolder, { recursive: true, force: true });
  });

  it('lists the host sources, the lock file, this build script and the packages it bundled as inputs', () => {
    expect(built.inputs).toEqual(
      expect.arrayContaining([
        join('electron', 'host', 'cli.ts'),
        join('electron', 'host', 'start-host.ts'),
        'package-lock.json',
        join('build', 'host-bundle.mjs'),
      ]),
    );
    expect(built.inputs.some((input) => input.startsWith(join('node_modules', 'zod')))).toBe(true);
  });

  it('leaves playwright-core to be imported when a report is printed, not when the host starts', async () => {
    const code = await readFile(built.path, 'utf8');
    expect(code).not.toMatch(/^import .* from "playwright-core";$/m);
    expect(code).toContain('await import("playwright-core")');
  });

  it('imports build/stale.mjs from the checkout, relative to where the bundle lies', async () => {
    expect(await readFile(built.path, 'utf8')).toMatch(/from "\.\.\/\.\.\/\.\.\/build\/stale\.mjs"/);
  });
});
