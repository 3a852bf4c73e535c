import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateBytes, readPrivateFile } from '../files/private-files';
import type { VisitPhoto } from './site-visit';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** Largest photo kept, in bytes: the renderer scales a photo down to 1600 px before it gets here. */
export const MAX_PHOTO_BYTES = 3 * 1024 * 1024;
/** Photos kept per visit. */
export const MAX_PHOTOS_PER_VISIT = 12;
/** Longest caption, in characters. */
export const MAX_CAPTION_LENGTH = 200;

/** A photo as listed: what it shows and how big it is, without its bytes. */
export interface VisitPhotoInfo {
  id: string;
  caption: string;
  mimeType: VisitPhoto['mimeType'];
  bytes: number;
  addedAt: number;
}

/** A photo that cannot be kept: the message says why in the technician's words. */
export class PhotoRejectedError extends Error {
  override readonly name = 'PhotoRejectedError';
}

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const PHOTO_ID_PATTERN = /^[0-9a-f-]{36}$/;
const EXTENSIONS: Record<VisitPhoto['mimeType'], string> = { 'image/jpeg': 'jpg', 'image/png': 'png' };

/** The image type the bytes really are (by their signature), whatever the file was called. */
export function sniffImageType(bytes: Uint8Array): VisitPhoto['mimeType'] | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > png.length && png.every((byte, index) => bytes[index] === byte)) return 'image/png';
  return null;
}

/**
 * The photos a technician attaches to a visit, kept on disk per profile and visit (the visit's start, in epoch
 * milliseconds, names it): `<folder>/<profileId>/<startedAt>/<id>.jpg|png` with a `<id>.json` beside it for the
 * caption. Folders are 0700 and files 0600 (photos of a customer's site are the customer's business); each file
 * is written atomically and read only if it is a regular file (never through a link, never waiting on a FIFO).
 * Only JPEG and PNG bytes are kept, checked by their signature, not by the name.
 */
export class VisitPhotos {
  /** @param clock when a photo is added (default: the system clock); a photo may also say its own time. */
  constructor(
    private readonly folder: string,
    private readonly clock: Pick<Clock, 'now'> = SYSTEM_CLOCK,
  ) {}

  private async visitFolder(profileId: string, startedAt: number, create: boolean): Promise<string> {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.'))
      throw new Error(t('report:photoFolderProfile', { profile: JSON.stringify(profileId) }));
    if (!Number.isSafeInteger(startedAt) || startedAt < 0)
      throw new PhotoRejectedError(t('report:enterStart'));
    const folder = join(this.folder, profileId, String(startedAt));
    if (create) {
      for (const path of [this.folder, join(this.folder, profileId), folder]) {
        await mkdir(path, { recursive: true, mode: 0o700 });
        await chmod(path, 0o700);
      }
    }
    return folder;
  }

  /** The photos of a visit, oldest first; none when nothing was attached. */
  async list(profileId: string, startedAt: number): Promise<VisitPhotoInfo[]> {
    const folder = await this.visitFolder(profileId, startedAt, false);
    const names = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const photos: VisitPhotoInfo[] = [];
    for (const name of names.filter((item) => item.endsWith('.json'))) {
      try {
        const info = JSON.parse(await readPrivateFile(join(folder, name))) as VisitPhotoInfo;
        if (PHOTO_ID_PATTERN.test(info.id) && info.mimeType in EXTENSIONS) photos.push(info);
      } catch {
        // A caption file torn by a crash (or not a regular file): the photo is left out, the list still shown.
      }
    }
    return photos.sort((left, right) => left.addedAt - right.addedAt);
  }

  /** Keeps a photo with its caption; refuses what is not JPEG or PNG, too large, or one photo too many. */
  async add(
    profileId: string,
    startedAt: number,
    photo: { caption: string; bytes: Uint8Array; now?: number },
  ): Promise<VisitPhotoInfo> {
    const mimeType = sniffImageType(photo.bytes);
    if (!mimeType) throw new PhotoRejectedError(t('errors:photoType'));
    if (photo.bytes.length > MAX_PHOTO_BYTES)
      throw new PhotoRejectedError(
        t('errors:photoTooLarge', {
          size: (photo.bytes.length / 1024 / 1024).toFixed(1),
          most: MAX_PHOTO_BYTES / 1024 / 1024,
        }),
      );
    const caption = photo.caption.trim();
    if (caption.length > MAX_CAPTION_LENGTH)
      throw new PhotoRejectedError(
        t('errors:captionTooLong', { length: caption.length, most: MAX_CAPTION_LENGTH }),
      );
    if ((await this.list(profileId, startedAt)).length >= MAX_PHOTOS_PER_VISIT)
      throw new PhotoRejectedError(t('errors:tooManyPhotos', { most: MAX_PHOTOS_PER_VISIT }));
    const folder = await this.visitFolder(profileId, startedAt, true);
    const info: VisitPhotoInfo = {
      id: randomUUID(),
      caption,
      mimeType,
      bytes: photo.bytes.length,
      addedAt: photo.now ?? this.clock.now(),
    };
    await writeFileAtomic(join(folder, `${info.id}.${EXTENSIONS[mimeType]}`), photo.bytes);
    await writeFileAtomic(join(folder, `${info.id}.json`), JSON.stringify(info));
    return info;
  }

  /** The bytes of one photo, or null when there is no such photo. */
  async read(profileId: string, startedAt: number, id: string): Promise<VisitPhoto | null> {
    if (!PHOTO_ID_PATTERN.test(id)) return null;
    const info = (await this.list(profileId, startedAt)).find((item) => item.id === id);
    if (!info) return null;
    const folder = await this.visitFolder(profileId, startedAt, false);
    const bytes = await readPrivateBytes(join(folder, `${id}.${EXTENSIONS[info.mimeType]}`));
    return {
      id,
      caption: info.caption,
      mimeType: info.mimeType,
      base64: bytes.toString('base64'),
      addedAt: info.addedAt,
    };
  }

  /** Every photo of a visit with its bytes, for the report. */
  async readAll(profileId: string, startedAt: number): Promise<VisitPhoto[]> {
    const photos: VisitPhoto[] = [];
    for (const info of await this.list(profileId, startedAt)) {
      const photo = await this.read(profileId, startedAt, info.id);
      if (photo) photos.push(photo);
    }
    return photos;
  }

  /** Removes a photo; removing one that is gone is not an error. */
  async remove(profileId: string, startedAt: number, id: string): Promise<void> {
    if (!PHOTO_ID_PATTERN.test(id)) return;
    const folder = await this.visitFolder(profileId, startedAt, false);
    await rm(join(folder, `${id}.json`), { force: true });
    for (const extension of Object.values(EXTENSIONS))
      await rm(join(folder, `${id}.${extension}`), { force: true });
  }
}
