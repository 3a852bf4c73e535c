import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPOSED } from '../../../../electron/preload/fieldkit-api';
import { FieldKitServices } from '../../../../electron/app';
import { MemoryStore } from '../../../../electron/services/credentials';
import { CHANNEL_NAMES, EVENT_NAME_LIST } from '../../../../electron/shared/ipc/channel-names';
import { contract, events } from '../../../../electron/shared/ipc/contract';

const sorted = (names: readonly string[]) => [...names].sort();

describe('contract, handlers and preload stay in step', () => {
  it('lists the same channels in the zod-free name list as in the contract', () => {
    expect(sorted(CHANNEL_NAMES)).toEqual(sorted(Object.keys(contract)));
    expect(sorted(EVENT_NAME_LIST)).toEqual(sorted(Object.keys(events)));
  });

  it('registers exactly one handler per contract channel', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'fieldkit-parity-'));
    try {
      const services = await FieldKitServices.create({
        dataDir: folder,
        mode: 'electron',
        version: '0.0.0',
        credentials: { store: new MemoryStore(), keychain: 'os' },
        createSession: () => {
          throw new Error('not used');
        },
      });
      expect(sorted(Object.keys(services.handlers))).toEqual(sorted(Object.keys(contract)));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('exposes exactly the contract channels and events through the preload', () => {
    expect(sorted(EXPOSED.channels)).toEqual(sorted(Object.keys(contract)));
    expect(sorted(EXPOSED.events)).toEqual(sorted(Object.keys(events)));
  });
});
