import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_VISIT,
  PhotoRejectedError,
  VisitPhotos,
} from '../../../../electron/services/reports';
import { setLanguage } from '../../../../electron/shared/i18n';

const STARTED_AT = Date.UTC(2026, 0, 15, 9);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);

let folder: string;
let photos: VisitPhotos;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-photos-'));
  photos = new VisitPhotos(join(folder, 'visit-photos'));
});

afterEach(async () => {
  setLanguage('en');
  await rm(folder, { recursive: true, force: true });
});

describe('VisitPhotos', () => {
  it('keeps a photo with its caption in a 0700 folder as a 0600 file, and gives it back', async () => {
    const added = await photos.add('demo', STARTED_AT, {
      caption: '  Mast after the swap ',
      bytes: PNG,
      now: 5,
    });
    expect(added).toMatchObject({ caption: 'Mast after the swap', mimeType: 'image/png', bytes: PNG.length });
    const visitFolder = join(folder, 'visit-photos', 'demo', String(STARTED_AT));
    expect((await stat(visitFolder)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(visitFolder))
      expect((await stat(join(visitFolder, name))).mode & 0o777).toBe(0o600);
    const read = await photos.read('demo', STARTED_AT, added.id);
    expect(Buffer.from(read!.base64, 'base64')).toEqual(Buffer.from(PNG));
  });

  it('keeps each visit and profile apart', async () => {
    await photos.add('demo', STARTED_AT, { caption: 'a', bytes: JPEG });
    expect(await photos.list('demo', STARTED_AT + 60_000)).toEqual([]);
    expect(await photos.list('other', STARTED_AT)).toEqual([]);
    expect(await photos.list('demo', STARTED_AT)).toHaveLength(1);
  });

  it('refuses bytes that are not JPEG or PNG, whatever they claim to be', async () => {
    await expect(
      photos.add('demo', STARTED_AT, { caption: 'x', bytes: new TextEncoder().encode('GIF89a…') }),
    ).rejects.toThrow(new PhotoRejectedError('Only JPEG and PNG photos can be attached.'));
  });

  it('refuses a photo larger than the limit, saying how large it is', async () => {
    const bytes = new Uint8Array(MAX_PHOTO_BYTES + 1);
    bytes.set(JPEG);
    await expect(photos.add('demo', STARTED_AT, { caption: 'x', bytes })).rejects.toThrow(
      /The photo is 3\.0 MB; at most 3 MB can be attached\./,
    );
  });

  it('refuses one photo more than a visit holds', async () => {
    for (let index = 0; index < MAX_PHOTOS_PER_VISIT; index++)
      await photos.add('demo', STARTED_AT, { caption: `${index}`, bytes: JPEG });
    await expect(photos.add('demo', STARTED_AT, { caption: 'one more', bytes: JPEG })).rejects.toThrow(
      /at most 12 photos; remove one first/,
    );
  });

  it('removes a photo and its caption', async () => {
    const added = await photos.add('demo', STARTED_AT, { caption: 'a', bytes: JPEG });
    await photos.remove('demo', STARTED_AT, added.id);
    expect(await photos.list('demo', STARTED_AT)).toEqual([]);
    expect(await photos.read('demo', STARTED_AT, added.id)).toBeNull();
  });

  it('refuses a profile id that could leave the photo folder', async () => {
    await expect(photos.list('../etc', STARTED_AT)).rejects.toThrow(/cannot name a photo folder/);
  });

  it('says why it refuses a photo in the language of the screen: French', async () => {
    setLanguage('fr');
    const refusal = photos.add('demo', STARTED_AT, { caption: 'x', bytes: Uint8Array.from([1, 2, 3, 4, 5]) });
    await expect(refusal).rejects.toBeInstanceOf(PhotoRejectedError);
    await expect(refusal).rejects.toThrow('Seules les photos JPEG et PNG peuvent être jointes.');
    await expect(photos.add('demo', -1, { caption: 'x', bytes: JPEG })).rejects.toThrow(
      "Indiquez le début de l'intervention",
    );
  });
});
