import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AcceptanceOverrideSchema, type AcceptanceOverride } from './acceptance-table';

/** The file in the data folder where a user overrides the check's thresholds, per profile id. */
export const THRESHOLD_OVERRIDES_FILE = 'acceptance-thresholds.json';

const OverridesFileSchema = z.record(z.string().min(1).max(64), AcceptanceOverrideSchema);

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
  const path = join(dataDir, THRESHOLD_OVERRIDES_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ThresholdOverridesError(
      `${THRESHOLD_OVERRIDES_FILE} could not be read: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ThresholdOverridesError(`${THRESHOLD_OVERRIDES_FILE} is not valid JSON; fix it or remove it.`);
  }
  const parsed = OverridesFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ThresholdOverridesError(
      `${THRESHOLD_OVERRIDES_FILE}: ${issue.path.join('.') || 'the file'}: ${issue.message}. Fix it or remove it.`,
    );
  }
  return parsed.data[profileId];
}
