import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../simulator';
import {
  PackCancelledError,
  prepareSitePack,
  type PackProgress,
  type PackReader,
} from '../../../electron/services/site-pack';
import { customersOf, loginAs, startTestSimulator } from '../../helpers/simulator';

// The preparation against the simulator on loopback: what it reads, how many requests at once, and cancel.

let simulator: RunningSimulator;
let session: PackReader;
let acmeId: string;

beforeAll(async () => {
  simulator = await startTestSimulator({ gateways: 40, offlineFraction: 0.25 });
  session = await loginAs(simulator, 'acme');
  acmeId = customersOf(simulator).acme.id;
}, 60_000);

afterAll(async () => {
  await simulator?.close();
});

/** A reader that counts the requests in flight at once. */
function countingReader(reader: PackReader) {
  let inFlight = 0;
  const counts = { most: 0, requests: 0 };
  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight++;
    counts.requests++;
    counts.most = Math.max(counts.most, inFlight);
    try {
      return await work();
    } finally {
      inFlight--;
    }
  };
  return {
    counts,
    reader: {
      call: (endpoint, request) => track(() => reader.call(endpoint, request)),
      command: (gatewayId, command, body) => track(() => reader.command(gatewayId, command, body)),
    } satisfies PackReader,
  };
}

const base = {
  profileId: 'profile-1',
  isRootPasswordStored: async (gatewayId: string) => gatewayId.endsWith('0'),
  isFatal: () => false,
};

describe('prepareSitePack', () => {
  it('keeps the whole list of the scope and the details of the chosen gateways, never more than 3 requests at once', async () => {
    const { reader, counts } = countingReader(session);
    const progress: PackProgress[] = [];
    const pack = await prepareSitePack({
      ...base,
      reader,
      scope: { kind: 'customer', id: acmeId },
      selection: { kind: 'all' },
      concurrency: 3,
      onProgress: (step) => progress.push(step),
    });
    expect(pack.gateways.length).toBeGreaterThan(0);
    expect(Object.keys(pack.details)).toHaveLength(pack.gateways.length);
    expect(counts.most).toBe(3);
    const online = pack.gateways.find((gateway) => gateway.status === 'ONLINE')!;
    const sections = pack.details[online.id.id]!.sections;
    for (const name of ['info', 'wanLinks', 'firewall', 'backups', 'software', 'alarms', 'events'] as const) {
      expect(sections[name], name).toBeDefined();
    }
    expect(sections.firewall && 'value' in sections.firewall).toBe(true);
    expect(progress.at(-1)).toEqual({
      phase: 'writing',
      done: pack.gateways.length,
      total: pack.gateways.length,
    });
    expect(pack.rootPasswordStored.every((id) => id.endsWith('0'))).toBe(true);
    // Named by the server, so that the pack is named offline too.
    expect(pack.scope).toEqual({ kind: 'customer', id: acmeId, name: 'Acme Water' });
  }, 60_000);

  it('does not wait on an offline gateway: its live sections say it was offline', async () => {
    const pack = await prepareSitePack({
      ...base,
      reader: session,
      scope: { kind: 'customer', id: acmeId },
      selection: { kind: 'all' },
    });
    const offline = pack.gateways.find((gateway) => gateway.status !== 'ONLINE');
    expect(offline).toBeDefined();
    expect(pack.details[offline!.id.id]!.sections.firewall).toEqual({ skipped: 'gateway-offline' });
  }, 60_000);

  it('reads details only for the visit list’s gateways, and still keeps the whole list', async () => {
    const all = await prepareSitePack({
      ...base,
      reader: session,
      scope: { kind: 'customer', id: acmeId },
      selection: { kind: 'ids', ids: ['none'] },
    });
    const chosen = all.gateways.slice(0, 2).map((gateway) => gateway.id.id);
    const pack = await prepareSitePack({
      ...base,
      reader: session,
      scope: { kind: 'customer', id: acmeId },
      selection: { kind: 'ids', ids: chosen },
    });
    expect(Object.keys(pack.details).sort()).toEqual([...chosen].sort());
    expect(pack.gateways).toHaveLength(all.gateways.length);
  }, 60_000);

  it('stops when cancelled, with a cancellation error', async () => {
    const controller = new AbortController();
    const preparing = prepareSitePack({
      ...base,
      reader: session,
      scope: { kind: 'customer', id: acmeId },
      selection: { kind: 'all' },
      signal: controller.signal,
      onProgress: (step) => {
        if (step.phase === 'details' && step.done === 1) controller.abort();
      },
    });
    await expect(preparing).rejects.toBeInstanceOf(PackCancelledError);
  }, 60_000);
});
