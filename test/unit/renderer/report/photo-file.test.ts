import { describe, expect, it } from 'vitest';
import { checkPhotoFile, scaledSize } from '../../../../renderer/src/views/report/photo-file';

describe('checkPhotoFile', () => {
  it('takes a JPEG or a PNG within the size limit', () => {
    expect(checkPhotoFile({ name: 'mast.jpg', type: 'image/jpeg', size: 4_000_000 })).toBeNull();
    expect(checkPhotoFile({ name: 'mast.png', type: 'image/png', size: 1 })).toBeNull();
  });

  it('names the file that is not a JPEG or PNG', () => {
    expect(checkPhotoFile({ name: 'mast.heic', type: 'image/heic', size: 10 })).toBe(
      '“mast.heic” is not a JPEG or PNG photo.',
    );
  });

  it('says how large a file is that is too large, and the limit', () => {
    expect(checkPhotoFile({ name: 'raw.jpg', type: 'image/jpeg', size: 31 * 1024 * 1024 })).toBe(
      '“raw.jpg” is 32.5 MB; at most 31.5 MB can be attached.',
    );
  });

  it('refuses an empty file', () => {
    expect(checkPhotoFile({ name: 'empty.png', type: 'image/png', size: 0 })).toBe('“empty.png” is empty.');
  });
});

describe('scaledSize', () => {
  it('scales the longest side down to 1600 px, keeping the proportions', () => {
    expect(scaledSize(4000, 3000)).toEqual({ width: 1600, height: 1200 });
    expect(scaledSize(1200, 2400)).toEqual({ width: 800, height: 1600 });
  });

  it('leaves a photo within 1600 px as it is', () => {
    expect(scaledSize(1600, 900)).toEqual({ width: 1600, height: 900 });
  });
});
