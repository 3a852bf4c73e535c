import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  readThresholdOverride,
  THRESHOLD_OVERRIDES_FILE,
  ThresholdOverridesError,
} from '../../../../electron/services/acceptance';

let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-thresholds-'));
  return () => rm(dataDir, { recursive: true, force: true });
});

const write = (content: string) => writeFile(join(dataDir, THRESHOLD_OVERRIDES_FILE), content);

describe('per-profile thresholds', () => {
  it('has no override when the file is absent', async () => {
    expect(await readThresholdOverride(dataDir, 'demo')).toBeUndefined();
  });

  it("reads the profile's own fields and nobody else's", async () => {
    await write(JSON.stringify({ demo: { observationSeconds: 120 }, other: { defaultAntennas: 8 } }));
    expect(await readThresholdOverride(dataDir, 'demo')).toEqual({ observationSeconds: 120 });
  });

  it('refuses a field out of its range, naming it', async () => {
    await write(JSON.stringify({ demo: { observationSeconds: -5 } }));
    await expect(readThresholdOverride(dataDir, 'demo')).rejects.toThrow(
      new ThresholdOverridesError(
        `${THRESHOLD_OVERRIDES_FILE}: demo.observationSeconds: Too small: expected number to be >=0. Fix it or remove it.`,
      ),
    );
  });

  it('refuses a file that is not JSON', async () => {
    await write('{ demo: ');
    await expect(readThresholdOverride(dataDir, 'demo')).rejects.toThrow(
      /is not valid JSON; fix it or remove it/,
    );
  });
});
