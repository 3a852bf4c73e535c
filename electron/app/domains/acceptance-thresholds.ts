import type { ChannelHandlers, ProfileReader } from './context';
import type { AcceptanceThresholds } from '../../shared/ipc/domains/acceptance';
import { IpcError } from '../../shared/ipc/result';
import {
  DEFAULT_ACCEPTANCE_TABLE,
  readThresholdOverride,
  ThresholdOverridesError,
  writeThresholdOverride,
  type AcceptanceOverride,
} from '../../services/acceptance';

/** What the thresholds channels use: the data folder holding the overrides file, and the profiles. */
export interface AcceptanceThresholdsDependencies {
  dataDir: string;
  profiles: ProfileReader;
}

/**
 * Handlers of the thresholds channels (`acceptance:thresholds-*`): a profile's table read, saved and taken back to
 * the defaults, in the data folder's overrides file (threshold-overrides.ts) — no server needed. A profile that
 * does not exist is NOT_FOUND; an overrides file that cannot be read is INVALID_INPUT naming the file and field,
 * and is left as it is.
 */
export function createAcceptanceThresholdsHandlers({
  dataDir,
  profiles,
}: AcceptanceThresholdsDependencies): ChannelHandlers<
  'acceptance:thresholds-read' | 'acceptance:thresholds-save' | 'acceptance:thresholds-clear'
> {
  const answer = async (profileId: string): Promise<AcceptanceThresholds> => {
    const profile = profiles.get(profileId);
    const override = await readOverride(dataDir, profileId);
    return {
      profileId,
      profileName: profile.name,
      defaults: DEFAULT_ACCEPTANCE_TABLE,
      override: override ?? {},
    };
  };

  const write = async (profileId: string, override: AcceptanceOverride): Promise<void> => {
    try {
      await writeThresholdOverride(dataDir, profileId, override);
    } catch (error) {
      if (error instanceof ThresholdOverridesError) throw new IpcError('INVALID_INPUT', error.message);
      throw error;
    }
  };

  return {
    'acceptance:thresholds-read': ({ profileId }) => answer(profileId),
    'acceptance:thresholds-save': async ({ profileId, override }) => {
      profiles.get(profileId);
      await write(profileId, override);
      return answer(profileId);
    },
    'acceptance:thresholds-clear': async ({ profileId, fields }) => {
      profiles.get(profileId);
      const kept: AcceptanceOverride = { ...(await readOverride(dataDir, profileId)) };
      for (const field of fields ?? overriddenFields(kept)) delete kept[field];
      await write(profileId, kept);
      return answer(profileId);
    },
  };
}

/** The profile's overrides of the thresholds (from the data folder's file) with the profile's name; none: undefined. */
export async function acceptanceThresholdsOf(
  dataDir: string,
  profiles: Pick<ProfileReader, 'list'>,
  profileId: string,
): Promise<{ name: string; override: AcceptanceOverride } | undefined> {
  const override = await readThresholdOverride(dataDir, profileId);
  if (!override || Object.keys(override).length === 0) return undefined;
  const name = profiles.list().profiles.find((profile) => profile.id === profileId)?.name ?? profileId;
  return { name, override };
}

function overriddenFields(override: AcceptanceOverride): Array<keyof AcceptanceOverride> {
  return (Object.keys(DEFAULT_ACCEPTANCE_TABLE) as Array<keyof AcceptanceOverride>).filter(
    (field) => field in override,
  );
}

async function readOverride(dataDir: string, profileId: string): Promise<AcceptanceOverride | undefined> {
  try {
    return await readThresholdOverride(dataDir, profileId);
  } catch (error) {
    if (error instanceof ThresholdOverridesError) throw new IpcError('INVALID_INPUT', error.message);
    throw error;
  }
}
