import type { VisitPhotoFile } from './visit-state';

/** Largest photo kept, in bytes: the renderer scales a photo down to 1600 px before it gets here. */
export const MAX_PHOTO_BYTES = 3 * 1024 * 1024;
/** Photos kept per visit. */
export const MAX_PHOTOS_PER_VISIT = 12;
/** Longest caption, in characters. */
export const MAX_CAPTION_LENGTH = 200;

/** A photo that cannot be kept: the message says why in the technician's words. */
export class PhotoRejectedError extends Error {
  override readonly name = 'PhotoRejectedError';
}

/** The image type the bytes really are (by their signature), whatever the file was called. */
export function sniffImageType(bytes: Uint8Array): VisitPhotoFile['mimeType'] | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > png.length && png.every((byte, index) => bytes[index] === byte)) return 'image/png';
  return null;
}
