// A FIFO cannot be made from Node, so this test spawns `mkfifo` and lives with the integration tests.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore, PROFILES_FILE } from '../../../electron/services/profiles';

const NOW = Date.UTC(2026, 10, 27, 9, 30);

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-profiles-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('a profiles file that is a FIFO', () => {
  it('is set aside with a notice instead of hanging the start, and the list starts empty', async () => {
    execFileSync('mkfifo', [join(folder, PROFILES_FILE)]);
    const store = new ProfileStore({ folder, clock: { now: () => NOW } });

    const notices = await store.load();

    expect(notices).toEqual([
      expect.objectContaining({
        code: 'PROFILES_CORRUPT',
        message: expect.stringContaining('not a regular file'),
      }),
    ]);
    expect(store.list().profiles).toEqual([]);
    expect(await readdir(folder)).toEqual([`${PROFILES_FILE}.corrupt-${NOW}`]);
  });
});
