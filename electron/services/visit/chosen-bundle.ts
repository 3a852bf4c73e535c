import type { BundleSource } from './verify-bundle';
import { MANIFEST_FILE_NAME } from './bundle';
import { sha256Hex } from './journal-file';
import { JOURNAL_FILE_NAME } from './visits';

/** A bundle chosen in the app, as `visit:verify-bundle` carries it (BundleChosenSchema). */
export interface ChosenBundle {
  /** Base64 of `manifest.json`, when the bundle has one. */
  manifest?: string | undefined;
  /** Base64 of `journal.jsonl`, when the bundle has one. */
  journal?: string | undefined;
  /** Every file of the bundle with its SHA-256, hashed where it was read. */
  files: ReadonlyArray<{ path: string; sha256: string }>;
}

/**
 * A chosen bundle as the verifier reads it: the manifest and the journal from their bytes (their hashes computed
 * here, not taken from the sender), every other file by the SHA-256 sent with it. A path that is not a plain
 * relative path (`..`, a leading `/`) is kept as given: it is in no manifest, so it is named as a file added.
 */
export function chosenBundle(chosen: ChosenBundle): BundleSource {
  const bytes = new Map<string, Uint8Array>();
  if (chosen.manifest !== undefined) bytes.set(MANIFEST_FILE_NAME, Buffer.from(chosen.manifest, 'base64'));
  if (chosen.journal !== undefined) bytes.set(JOURNAL_FILE_NAME, Buffer.from(chosen.journal, 'base64'));
  const hashes = new Map(chosen.files.map((file) => [file.path, file.sha256]));
  return {
    list: () => Promise.resolve([...hashes.keys()].sort()),
    read: (path) => Promise.resolve(bytes.get(path) ?? null),
    sha256: (path) => {
      const held = bytes.get(path);
      return Promise.resolve(held ? sha256Hex(held) : (hashes.get(path) ?? null));
    },
  };
}
