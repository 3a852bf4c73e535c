import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildReportModel,
  readJournalPhotos,
  visitFromJournal,
  type PackedGatewayFacts,
} from '../../../../electron/services/reports';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import type { TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import { FACTORY_TIME } from '../../../helpers/factories';
import { ManualClock } from '../../../helpers/manual-clock';
import { openTestVisit, type TestVisit } from '../../../helpers/visit-journal';

// The report read from one visit's journal alone, appended through the real journal in a folder of its own.

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7, 7]);
const NO_CARRIER = '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN\n';
const ROOF_NORTH: PackedGatewayFacts = {
  id: 'gw-7',
  name: 'Roof North',
  mac: '647FDAFFFE000007',
  model: 'iBTS',
  bspVersion: '5.1.0',
  status: 'ONLINE',
  asOf: FACTORY_TIME - 86_400_000,
};

let visit: TestVisit | undefined;
afterEach(async () => {
  await visit?.remove();
  visit = undefined;
});

async function open(): Promise<{ visit: TestVisit; clock: ManualClock }> {
  const clock = new ManualClock(FACTORY_TIME);
  visit = await openTestVisit({ site: 'Harbour warehouse roof', arrivedAt: FACTORY_TIME }, clock);
  return { visit, clock };
}

/** The report model of the visit's journal as it stands, in UTC. */
function modelOf(test: TestVisit, fromPack: PackedGatewayFacts[] = [], gateways?: string[]) {
  return buildReportModel(
    visitFromJournal(test.lines(), {
      technician: 'tech@example.com',
      profileId: 'demo',
      fromPack,
      ...(gateways ? { gateways } : {}),
      now: FACTORY_TIME + 3_600_000,
    }),
    { timeZone: 'UTC', generatedAt: FACTORY_TIME },
  );
}

/** A serial console's "Collect diagnostics" whose `ip addr` shows eth0 without a link. */
function faultyTriage(): TriageResult {
  return {
    terminalId: 't-1',
    title: 'Roof North · 115200 8N1',
    gatewayId: 'Roof North',
    startedAt: FACTORY_TIME,
    finishedAt: FACTORY_TIME + 10_000,
    outcome: 'complete',
    commands: [{ command: 'ip addr', outcome: 'ok', exitCode: 0, durationMs: 80, timeoutMs: 15_000 }],
    health: assessHealth({ addresses: { command: 'ip addr', output: NO_CARRIER, exitCode: 0 } }),
  };
}

describe('the report of one visit journal', () => {
  it('says unknown for a command the journal holds as sent with no outcome', async () => {
    const { visit } = await open();
    await visit.append({
      kind: 'command-sent',
      commandId: 'c-1',
      gateway: { gatewayId: 'gw-1', name: 'Kona Macro 7' },
      command: 'rebootGateway',
      risk: 'disruptive',
    });
    const [section] = modelOf(visit).sections;
    expect(section?.name).toBe('Kona Macro 7');
    expect(section?.commands).toEqual([
      expect.objectContaining({ name: 'rebootGateway', outcome: { tone: 'unknown', words: 'unknown' } }),
    ]);
  });

  it('pairs a command with its outcome by its id', async () => {
    const { visit } = await open();
    await visit.append(
      { kind: 'command-sent', commandId: 'c-1', gateway: { gatewayId: 'gw-1' }, command: 'getGatewayInfo' },
      { kind: 'command-outcome', commandId: 'c-1', outcome: 'failed', error: 'The gateway did not answer' },
    );
    expect(modelOf(visit).sections[0]?.commands).toEqual([
      expect.objectContaining({
        name: 'getGatewayInfo',
        outcome: { tone: 'failed', words: 'failed' },
        error: 'The gateway did not answer',
      }),
    ]);
  });

  it('files a triage typed as the name of a packed gateway under that gateway, its fault on page one', async () => {
    const { visit } = await open();
    await visit.append({ kind: 'triage', gateway: { typed: 'Roof North' }, result: faultyTriage() });
    const model = modelOf(visit, [ROOF_NORTH]);
    expect(model.gateways).toEqual([
      expect.objectContaining({
        name: 'Roof North',
        findings: [
          expect.objectContaining({ words: 'fault found', detail: expect.stringContaining('eth0') }),
        ],
      }),
    ]);
    expect(model.sections.map((section) => [section.gatewayId, section.triages.length])).toEqual([
      ['gw-7', 1],
    ]);
    expect(model.sections[0]?.pack?.text).toContain('iBTS');
  });

  it('merges the gateways its entries name by id, by MAC, and by what was later identified', async () => {
    const { visit } = await open();
    await visit.append(
      {
        kind: 'note',
        text: 'Mast checked',
        gateway: { gatewayId: 'gw-1', name: 'Kona', mac: '647FDAFFFE001CAD' },
      },
      { kind: 'triage', gateway: { mac: '64:7f:da:ff:fe:00:1c:ad' }, result: faultyTriage() },
      {
        kind: 'terminal-opened',
        sessionId: 's-1',
        transport: 'serial',
        title: 'shed · 9600 8N1',
        gateway: { typed: 'shed' },
        logFile: '/logs/shed.log',
      },
      { kind: 'gateway-identified', typed: 'shed', gateway: { gatewayId: 'gw-1', name: 'Kona' } },
    );
    const model = modelOf(visit);
    expect(model.sections.map((section) => section.gatewayId)).toEqual(['gw-1']);
    expect(model.sections[0]?.triages).toHaveLength(1);
    expect(model.sections[0]?.sessions).toEqual([{ label: 'shed · 9600 8N1', file: 'logs/shed.log' }]);
    expect(model.acknowledgement.notes).toBe('Mast checked');
  });

  it('names each session log by the name its attachment keeps it under in the bundle', async () => {
    const { visit } = await open();
    const gateway = { gatewayId: 'gw-1', name: 'Kona' };
    const sha256 = 'a'.repeat(64);
    await visit.append(
      {
        kind: 'terminal-opened',
        sessionId: 's-1',
        transport: 'serial',
        title: 'Console 1',
        gateway,
        logFile: '/a/console.log',
      },
      {
        kind: 'terminal-opened',
        sessionId: 's-2',
        transport: 'serial',
        title: 'Console 2',
        gateway,
        logFile: '/b/console.log',
      },
      { kind: 'log-attached', logFile: 'console.log', sha256, bytes: 10, sessionId: 's-1', gateway },
      { kind: 'log-attached', logFile: '2-console.log', sha256, bytes: 10, sessionId: 's-2', gateway },
    );
    expect(modelOf(visit).sections[0]?.sessions).toEqual([
      { label: 'Console 1', file: 'logs/console.log' },
      { label: 'Console 2', file: 'logs/2-console.log' },
    ]);
  });

  it('takes its fields from the visit opened and every edit after, as typed', async () => {
    const { visit, clock } = await open();
    await visit.visits.update({ customer: 'Acme', title: 'Quarterly check', notes: 'Gate code 1234' });
    clock.time += 60_000;
    await visit.visits.update({ site: 'North mast' });
    const model = modelOf(visit);
    expect(model.title).toBe('Quarterly check');
    expect(model.header.site).toBe('North mast');
    expect(model.facts.find((fact) => fact.label === 'Customer')?.text).toBe('Acme');
    expect(model.acknowledgement.notes).toBe('Gate code 1234');
    expect(model.evidence?.head).toBe(visit.lines().at(-1)?.hash);
  });

  it('keeps only the ticked gateways, and the work of none', async () => {
    const { visit } = await open();
    await visit.append(
      { kind: 'command-sent', commandId: 'c-1', gateway: { gatewayId: 'gw-1' }, command: 'getGatewayInfo' },
      { kind: 'command-sent', commandId: 'c-2', gateway: { gatewayId: 'gw-2' }, command: 'getGatewayInfo' },
    );
    expect(modelOf(visit, [], ['gw-2']).sections.map((section) => section.gatewayId)).toEqual(['gw-2']);
  });

  it('embeds a photo only while its bytes hash to what the journal recorded', async () => {
    const { visit } = await open();
    const photo = await visit.visits.attachPhoto({ bytes: PNG, caption: 'Mast' });
    expect(await readJournalPhotos(visit.lines(), visit.folder)).toEqual([
      expect.objectContaining({
        id: photo.photoId,
        caption: 'Mast',
        base64: Buffer.from(PNG).toString('base64'),
      }),
    ]);
    await writeFile(join(visit.folder, 'photos', photo.fileName), Uint8Array.from([...PNG, 0]));
    expect(await readJournalPhotos(visit.lines(), visit.folder)).toEqual([]);
  });

  it('reads the pings and RF readings the journal measured', async () => {
    const { visit } = await open();
    await visit.append(
      {
        kind: 'measurement',
        gateway: { gatewayId: 'gw-1' },
        measurement: 'ping',
        values: { read: 'ping', destination: '8.8.8.8', answer: { packets_sent: 4, packets_recv: 3 } },
      },
      {
        kind: 'measurement',
        gateway: { gatewayId: 'gw-1' },
        measurement: 'rf',
        values: { meterId: 'm-1', at: FACTORY_TIME, signalStrength: -77, sinr: 9, rsrq: -11, ecio: -6 },
      },
    );
    const [section] = modelOf(visit).sections;
    expect(section?.pings).toEqual([
      expect.objectContaining({ destination: '8.8.8.8', sent: 4, received: 3 }),
    ]);
    expect(section?.rf[0]?.rows[0]).toMatchObject({ best: expect.stringContaining('-77 dBm') });
  });
});

describe('a runbook in the report', () => {
  it('is a line of the commands run on its gateway, with its steps and how it ended', async () => {
    const { visit } = await open();
    await visit.append({
      kind: 'runbook',
      runId: 'r-1',
      runbook: 'Restart the forwarder',
      sessionId: 's-1',
      gateway: { gatewayId: 'gw-1', name: 'Kona Macro 7' },
      outcome: 'failed',
      steps: [
        { send: 'systemctl restart lora-pkt-fwd', waitFor: 'text: $', status: 'seen' },
        { send: 'systemctl is-active lora-pkt-fwd', status: 'not-seen', message: 'No prompt within 10 s' },
      ],
    });
    const [row] = modelOf(visit).sections[0]?.commands ?? [];
    expect(row).toMatchObject({
      name: 'Runbook “Restart the forwarder”',
      outcome: { tone: 'failed' },
      error: 'No prompt within 10 s',
    });
    expect(JSON.stringify(row?.request)).toContain('systemctl is-active lora-pkt-fwd');
  });
});
