import { join } from 'node:path';
import { z } from 'zod';
import { t } from '../../shared/i18n';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile } from '../files/private-files';
import { AcceptanceOverrideSchema, type AcceptanceOverride } from './acceptance-table';

/** The file in the data folder where a user overrides the check's thresholds, per profile id. */
export const THRESHOLD_OVERRIDES_FILE = 'acceptance-thresholds.json';

const OverridesFileSchema = z.record(z.string().min(1).max(64), AcceptanceOverrideSchema);
type OverridesFile = z.infer<typeof OverridesFileSchema>;

/** The overrides file could not be used: the message names the file and the first wrong field. */
export class ThresholdOverridesError extends Error {
  override readonly name = 'ThresholdOverridesError';
}

/**
 * A profile's overrides of the thresholds table from `<dataDir>/acceptance-thresholds.json` (docs/acceptance.md):
 * undefined when the file or the profile's entry is absent; rejects with ThresholdOverridesError when the file is
 * not JSON or a field is out of its range, so a check never runs on thresholds the user did not mean.
 */
export async function readThresholdOverride(
  dataDir: string,
  profileId: string,
): Promise<AcceptanceOverride | undefined> {
  return (await readOverridesFile(dataDir))[profileId];
}

/**
 * Sets a profile's overrides (an empty one, or undefined, removes its entry) and leaves every other profile's as
 * it was. The file is written whole and atomically, 0600 in the 0700 data folder. A file that cannot be read
 * (ThresholdOverridesError) is left as it is and nothing is written: other profiles' thresholds are never lost
 * to a save. Saves of one data folder are taken one after the other.
 */
export function writeThresholdOverride(
  dataDir: string,
  profileId: string,
  override: AcceptanceOverride | undefined,
): Promise<void> {
  const path = join(dataDir, THRESHOLD_OVERRIDES_FILE);
  const write = async () => {
    const file = await readOverridesFile(dataDir);
    const kept: OverridesFile = Object.fromEntries(Object.entries(file).filter(([id]) => id !== profileId));
    if (override && Object.keys(override).length > 0)
      kept[profileId] = AcceptanceOverrideSchema.parse(override);
    await writeFileAtomic(path, `${JSON.stringify(kept, null, 2)}\n`, 0o600);
  };
  const queued = (writes.get(path) ?? Promise.resolve()).then(write, write);
  writes.set(path, queued);
  void queued
    .finally(() => {
      if (writes.get(path) === queued) writes.delete(path);
    })
    .catch(() => undefined);
  return queued;
}

// The save under way of each overrides file, so that two saves never read the same old file.
const writes = new Map<string, Promise<void>>();

async function readOverridesFile(dataDir: string): Promise<OverridesFile> {
  const path = join(dataDir, THRESHOLD_OVERRIDES_FILE);
  let text: string;
  try {
    text = await readPrivateFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ThresholdOverridesError(
      t('acceptance:overridesUnreadable', {
        file: THRESHOLD_OVERRIDES_FILE,
        reason: (error as Error).message,
      }),
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ThresholdOverridesError(t('acceptance:overridesNotJson', { file: THRESHOLD_OVERRIDES_FILE }));
  }
  const parsed = OverridesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ThresholdOverridesError(
      t('acceptance:overridesFieldWrong', {
        file: THRESHOLD_OVERRIDES_FILE,
        field: issue.path.join('.') || t('acceptance:overridesWholeFile'),
        reason: issue.message,
      }),
    );
  }
  return parsed.data;
}
