import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAcceptanceHandlers } from '../../../electron/app/domains/acceptance';
import { CallCancellation } from '../../../electron/app/call-cancellation';
import { createVisitGateways } from '../../../electron/app/visit-gateways';
import { SitePacks } from '../../../electron/services/site-pack';
import { JournalWriteError, Visits } from '../../../electron/services/visit';
import { SYSTEM_CLOCK } from '../../../electron/shared/clock';
import type { TriageResult } from '../../../electron/shared/terminal/triage-schemas';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import { makeGateway, makeSitePack } from '../../helpers/factories';
import { ManualClock } from '../../helpers/manual-clock';

// The offline card in field mode (nobody signed in) over the real visit journal and site pack on disk: the card is
// journaled, its gateway named by the pack, before it is answered.

let dataDir: string;
let visits: Visits;
let sitePacks: SitePacks;
const clock = new ManualClock(Date.UTC(2026, 10, 28, 1, 53));

const triage: TriageResult = {
  terminalId: 'serial-1',
  title: 'acme-gw-0013 · 115200 8N1',
  startedAt: clock.now() - 20_000,
  finishedAt: clock.now() - 10_000,
  outcome: 'complete',
  commands: [],
  health: {
    interfaces: [],
    defaultRoutes: [],
    dns: [],
    findings: [],
    network: { status: 'ok', detail: 'fine' },
    wan: { status: 'ok', detail: 'fine' },
    modem: { status: 'ok', detail: 'fine' },
    packetForwarder: { status: 'fault', detail: 'No packet forwarder process.' },
    versions: [],
    logErrors: [],
  },
};

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-acceptance-offline-'));
  visits = new Visits({ dataDir, clock });
  await visits.load();
  sitePacks = new SitePacks({ dataDir });
  await sitePacks.save(
    makeSitePack(20, {
      profileId: 'profile-1',
      gateways: Array.from({ length: 20 }, (_, index) =>
        makeGateway(index, { name: `acme-gw-${String(index).padStart(4, '0')}` }),
      ),
      details: {
        'gw-13': {
          readAt: clock.now() - 3_600_000,
          sections: { alarms: { value: { data: [], totalPages: 1, totalElements: 0, hasNext: false } } },
        },
      },
    }),
  );
  await visits.open({ site: 'Roof' });
  await visits.append({ kind: 'triage', gateway: { gatewayId: 'gw-13' }, result: triage });
});

afterEach(async () => {
  await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

function handlers(recorder: Pick<Visits, 'append' | 'current' | 'entries'> = visits) {
  const gateways = createVisitGateways({
    sessions: {
      summary: () => null,
      requireSession: () => {
        throw new Error('not signed in');
      },
    },
    selectedProfileId: () => 'profile-1',
    sitePacks,
    visits,
    clock: SYSTEM_CLOCK,
  });
  return createAcceptanceHandlers({
    sessions: {
      summary: () => null,
      requireSession: () => {
        throw new Error('not signed in');
      },
    },
    cancellation: new CallCancellation(),
    commands: { send: () => Promise.reject(new Error('no server')) },
    visits: recorder,
    events: { emit: () => undefined },
    clock,
    selectedProfileId: () => 'profile-1',
    resolveGateway: gateways.resolve,
    sitePacks,
    log: { error: () => undefined },
  });
}

const acceptanceEntries = () =>
  visits
    .entries(visits.current()!.id)
    .map(({ entry }) => entry as VisitEntry)
    .filter((entry) => entry.kind === 'acceptance');

describe('the offline acceptance card', () => {
  it('is journaled with the gateway the site pack names, each time it is made', async () => {
    const offline = handlers()['acceptance:offline'];
    const first = await offline({ gatewayId: 'gw-13' }, { channel: 'acceptance:offline' });
    const second = await offline({ gatewayId: 'gw-13' }, { channel: 'acceptance:offline' });
    expect(first?.verdict).toBe('no-go');
    expect(first?.items.find((item) => item.id === 'alarms')?.verdict).toBe('go');
    expect(acceptanceEntries()).toEqual([
      {
        kind: 'acceptance',
        gateway: { gatewayId: 'gw-13', name: 'acme-gw-0013', mac: '00:80:00:00:00:0D' },
        card: first,
      },
      {
        kind: 'acceptance',
        gateway: { gatewayId: 'gw-13', name: 'acme-gw-0013', mac: '00:80:00:00:00:0D' },
        card: second,
      },
    ]);
    const cards = await handlers()['acceptance:cards'](
      { gatewayIds: ['gw-13'] },
      { channel: 'acceptance:cards' },
    );
    expect(cards.cards).toEqual([first, second]);
  });

  it("refuses the card with the journal's message when the journal cannot keep it", async () => {
    const refusing = {
      current: () => visits.current(),
      entries: (id: string) => visits.entries(id),
      append: () => Promise.reject(new JournalWriteError('ENOSPC')),
    };
    const reason = new JournalWriteError('ENOSPC').message;
    await expect(
      handlers(refusing)['acceptance:offline']({ gatewayId: 'gw-13' }, { channel: 'acceptance:offline' }),
    ).rejects.toThrow(reason);
    expect(acceptanceEntries()).toEqual([]);
  });
});
