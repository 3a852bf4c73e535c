import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadWindowBounds, saveWindowBounds } from '../../../electron/main/window-state';

const SCREEN = [{ x: 0, y: 0, width: 1920, height: 1080 }];
let folder: string;
let path: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-bounds-'));
  path = join(folder, 'window-state.json');
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('window bounds', () => {
  it('reads back what was saved', async () => {
    const bounds = { x: 100, y: 80, width: 1200, height: 800, isMaximized: true };
    await saveWindowBounds(path, bounds);
    expect(await loadWindowBounds(path, SCREEN)).toEqual(bounds);
  });

  it('drops a position that is off every display, keeping the size', async () => {
    await saveWindowBounds(path, { x: 4000, y: 80, width: 1200, height: 800, isMaximized: false });
    expect(await loadWindowBounds(path, SCREEN)).toEqual({ width: 1200, height: 800, isMaximized: false });
  });

  it('answers null for a missing or corrupt file', async () => {
    expect(await loadWindowBounds(path, SCREEN)).toBeNull();
    await writeFile(path, '{"width": "wide"', 'utf8');
    expect(await loadWindowBounds(path, SCREEN)).toBeNull();
  });
});
