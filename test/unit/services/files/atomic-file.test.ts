import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../../electron/services/files/atomic-file';

describe('writeFileAtomic', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'atomic-file-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('replaces a file with new text, readable by its owner only, and leaves no temporary file', async () => {
    const path = join(folder, 'profiles.json');
    await writeFile(path, 'old content that is longer than the new', { mode: 0o644 });
    await writeFileAtomic(path, '{"é":1}');
    expect(await readFile(path, 'utf8')).toBe('{"é":1}');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['profiles.json']);
  });

  it('writes bytes as they are, creating the missing folders', async () => {
    const path = join(folder, 'visit', 'photo.png');
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    await writeFileAtomic(path, bytes);
    expect(new Uint8Array(await readFile(path))).toEqual(bytes);
  });

  it('rejects when the target cannot be replaced and leaves no temporary file behind', async () => {
    const path = join(folder, 'report.html');
    await writeFileAtomic(join(path, 'inside.html'), 'x');
    await expect(writeFileAtomic(path, 'report')).rejects.toThrow();
    expect(await readdir(folder)).toEqual(['report.html']);
  });
});
