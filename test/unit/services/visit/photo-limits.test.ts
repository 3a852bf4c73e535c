import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTOS_PER_VISIT,
  PhotoRejectedError,
  Visits,
} from '../../../../electron/services/visit';
import { setLanguage } from '../../../../electron/shared/i18n';

// What a visit refuses to keep as a photo, and the words it says why (the visit's photos: Visits.attachPhoto).

const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);

let dataDir: string;
let visits: Visits;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-photo-limits-'));
  visits = new Visits({ dataDir });
  await visits.load();
});

afterEach(async () => {
  setLanguage('en');
  await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

describe("a visit's photos", () => {
  it('refuses a photo larger than the limit, saying how large it is', async () => {
    const bytes = new Uint8Array(MAX_PHOTO_BYTES + 1);
    bytes.set(JPEG);
    await expect(visits.attachPhoto({ caption: 'x', bytes })).rejects.toThrow(
      /The photo is 3\.0 MB; at most 3 MB can be attached\./,
    );
  });

  it('refuses one photo more than a visit holds', async () => {
    for (let index = 0; index < MAX_PHOTOS_PER_VISIT; index++)
      await visits.attachPhoto({ caption: `${index}`, bytes: JPEG });
    await expect(visits.attachPhoto({ caption: 'one more', bytes: JPEG })).rejects.toThrow(
      /at most 12 photos; remove one first/,
    );
  });

  it('says why it refuses a photo in the language of the screen: French', async () => {
    setLanguage('fr');
    const refusal = visits.attachPhoto({ caption: 'x', bytes: Uint8Array.from([1, 2, 3, 4, 5]) });
    await expect(refusal).rejects.toBeInstanceOf(PhotoRejectedError);
    await expect(refusal).rejects.toThrow('Seules les photos JPEG et PNG peuvent être jointes.');
  });
});
