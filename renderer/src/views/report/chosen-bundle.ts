import type { ChannelInput, ChannelOutput } from '../../lib/wire-types';
import { toBase64 } from './photo-file';
import { t } from '../../lib/i18n';

/** A file of a chosen folder: its bytes, and its path under the folder picked (`webkitRelativePath`). */
export interface ChosenFile {
  readonly webkitRelativePath: string;
  readonly name: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A file's path inside the bundle: its path under the folder picked, without that folder's own name. */
function pathInBundle(file: ChosenFile): string {
  const path = file.webkitRelativePath || file.name;
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A bundle folder chosen in the page, as `visit:verify-bundle` takes it: the manifest's and the journal's bytes,
 * and every file's path and SHA-256 (hashed here, one file at a time, so a bundle of any size fits one message).
 */
export async function readChosenBundle(
  files: Iterable<ChosenFile>,
): Promise<ChannelInput<'visit:verify-bundle'>> {
  const chosen: ChannelInput<'visit:verify-bundle'> = { files: [] };
  for (const file of files) {
    const path = pathInBundle(file);
    const bytes = await file.arrayBuffer();
    chosen.files.push({ path, sha256: await sha256Hex(bytes) });
    if (path === 'manifest.json') chosen.manifest = toBase64(new Uint8Array(bytes));
    else if (path === 'journal.jsonl') chosen.journal = toBase64(new Uint8Array(bytes));
  }
  return chosen;
}

/** What verifying found, in words: intact with its head and counts, or the first thing changed, added or removed. */
export function describeVerdict(verdict: ChannelOutput<'visit:verify-bundle'>): {
  headline: string;
  more: string[];
} {
  if (verdict.isIntact) {
    const files = verdict.files ?? { reports: 0, photos: 0, logs: 0 };
    const counts = [
      t('report:verifyEntries', { count: verdict.entries ?? 0 }),
      t('report:verifyPhotos', { count: files.photos }),
      t('report:verifyLogs', { count: files.logs }),
      t('report:verifyReportFiles', { count: files.reports }),
    ].join(', ');
    return {
      headline: t('report:verifyIntact', { counts }),
      more: [t('report:verifyHead', { head: verdict.head ?? t('report:verifyNone') })],
    };
  }
  const [first = t('report:verifyUnreadableBundle'), ...rest] = verdict.problems;
  return {
    headline: t('report:verifyNotIntact', { problem: first }),
    more: [
      ...rest.map((problem) => t('report:verifyAlso', { problem })),
      ...(verdict.head ? [t('report:verifyHeadBundled', { head: verdict.head })] : []),
    ],
  };
}
