import type { ChannelInput, ChannelOutput } from '../../lib/wire-types';
import { toBase64 } from './photo-file';

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

function count(amount: number, one: string, many: string): string {
  return `${amount} ${amount === 1 ? one : many}`;
}

/** What verifying found, in words: intact with its head and counts, or the first thing changed, added or removed. */
export function describeVerdict(verdict: ChannelOutput<'visit:verify-bundle'>): {
  headline: string;
  more: string[];
} {
  if (verdict.isIntact) {
    const files = verdict.files ?? { reports: 0, photos: 0, logs: 0 };
    return {
      headline: `Verified: nothing was changed, added or removed. ${count(verdict.entries ?? 0, 'journal entry', 'journal entries')}, ${count(files.photos, 'photo', 'photos')}, ${count(files.logs, 'log', 'logs')}, ${count(files.reports, 'report file', 'report files')}.`,
      more: [`Journal head (compare with the report's last page): ${verdict.head ?? 'none'}`],
    };
  }
  const [first = 'the bundle could not be read', ...rest] = verdict.problems;
  return {
    headline: `Not intact: ${first}.`,
    more: [
      ...rest.map((problem) => `Also: ${problem}.`),
      ...(verdict.head ? [`Journal head as bundled: ${verdict.head}`] : []),
    ],
  };
}
