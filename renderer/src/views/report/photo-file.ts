import { format } from '../../../../electron/shared/format';
import { t } from '../../lib/i18n';
/** Photo types a technician can attach. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;
/** Largest file taken from disk, before scaling (a phone's full-size photo fits). */
export const MAX_PHOTO_FILE_BYTES = 30 * 1024 * 1024;
/** Longest side of a photo as kept: enough for an A4 page, small enough to keep a report light. */
export const MAX_PHOTO_EDGE_PX = 1600;
/** A file this small, within the edge limit, is kept as given rather than re-encoded. */
const KEEP_AS_GIVEN_BYTES = 1024 * 1024;
/** What the main process accepts (MAX_PHOTO_BYTES there). */
const MAX_KEPT_BYTES = 3 * 1024 * 1024;

/** Why a file cannot be attached, in words; null when it can. */
export function checkPhotoFile(file: { name: string; type: string; size: number }): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type))
    return t('report:photoNotImage', { name: file.name });
  if (file.size > MAX_PHOTO_FILE_BYTES)
    return t('report:photoTooLarge', {
      name: file.name,
      size: format.bytes(file.size),
      limit: format.bytes(MAX_PHOTO_FILE_BYTES),
    });
  if (file.size === 0) return t('report:photoEmpty', { name: file.name });
  return null;
}

/** The size a photo is drawn at: its own, or scaled down so its longest side is `MAX_PHOTO_EDGE_PX`. */
export function scaledSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MAX_PHOTO_EDGE_PX / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Base64 of bytes, in slices (a spread of a whole photo would overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 0x8000)
    text += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
  return btoa(text);
}

/**
 * A photo file ready to keep with the visit, as base64: a small one as given, a larger one drawn on a canvas at
 * most 1600 px on its longest side and re-encoded as JPEG (on white, so a transparent PNG keeps its look).
 * Rejects with a message a technician can read when the file is not an image the browser can decode.
 */
export async function preparePhoto(file: File): Promise<string> {
  const problem = checkPhotoFile(file);
  if (problem) throw new Error(problem);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(t('report:photoUnreadable', { name: file.name }));
  }
  try {
    const size = scaledSize(bitmap.width, bitmap.height);
    if (size.width === bitmap.width && size.height === bitmap.height && file.size <= KEEP_AS_GIVEN_BYTES)
      return toBase64(new Uint8Array(await file.arrayBuffer()));
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error(t('report:photoCannotScale'));
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size.width, size.height);
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    for (const quality of [0.85, 0.7, 0.5]) {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
      if (blob && blob.size <= MAX_KEPT_BYTES) return toBase64(new Uint8Array(await blob.arrayBuffer()));
    }
    throw new Error(t('report:photoTooLargeScaled', { name: file.name }));
  } finally {
    bitmap.close();
  }
}
