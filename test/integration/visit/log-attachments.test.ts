import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVisitHandlers } from '../../../electron/app/domains/visit';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import {
  createGatewayResolver,
  createTerminalJournal,
  gatherClosedVisitEvidence,
  gatherVisitEvidence,
  verifyBundle,
  Visits,
  writeVisitBundle,
  type KnownGateway,
} from '../../../electron/services/visit';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { HEALTHY_NETWORK } from '../../../simulator/shell/gateway-network';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

// Session logs attached to the visit when they are final — when the session closes, or when the visit closes with
// the session still open — so a closed visit's bundle holds them: a real serial console of a simulated gateway on
// a socat pty, the real SerialPorts, TerminalManager and journal on disk, the bundle checked by the verifier.

const PACKED: KnownGateway[] = [{ id: 'gw-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD' }];
const resolve = createGatewayResolver({ pack: async () => PACKED });

let directory: string;
let visits: Visits;
let serialPorts: SerialPorts;
let gatewayConsole: AttachedSerialConsole;
let manager: TerminalManager;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fieldkit-log-attachments-'));
  visits = new Visits({ dataDir: directory });
  await visits.load();
  serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
  gatewayConsole = await attachSerialConsole({
    gateway: { gatewayId: 'gw-13', hostname: 'acme-gw-0013', bspVersion: '5.1.0', rootPassword: 'pw-13' },
    shellContext: { network: () => HEALTHY_NETWORK },
    linkPath: join(directory, 'console'),
  });
  manager = new TerminalManager({
    events: { emit: () => undefined },
    ...serialOnlyTerminals(serialPorts),
    journal: createTerminalJournal({ recorder: visits, resolve, visits }),
  });
});

afterEach(async () => {
  await serialPorts.closeAll();
  await gatewayConsole.close();
  await visits.shutdown();
  await rm(directory, { recursive: true, force: true });
});

/** A visit's entries, as on disk now. */
function entriesOf(visitId: string): VisitEntry[] {
  return visits.entries(visitId).map((line) => line.entry as VisitEntry);
}

function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The visit handlers as main wires them: the visit closes with the logs of the sessions still open attached. */
function visitHandlers() {
  return createVisitHandlers({
    visits,
    gateways: {
      search: async () => [],
      unidentified: () => [],
      identify: () => Promise.reject(new Error('none')),
    },
    signedIn: () => undefined,
    terminalLogs: () => manager.logs().map((log) => ({ path: log.path, id: log.id })),
    resolveGateway: resolve,
  });
}

/** A closed visit's bundle, written as an export of that visit writes it. */
async function bundleOfClosedVisit(visitId: string): Promise<string> {
  const evidence = await gatherClosedVisitEvidence(visits, visitId);
  const bundle = join(directory, 'bundle');
  const report = join(directory, 'report.html');
  await writeFile(report, '<p>report</p>');
  await writeVisitBundle(bundle, {
    visitId,
    journal: evidence.journal.bytes,
    reportPaths: [report],
    photos: evidence.photos,
    logs: evidence.logs,
    createdAt: 1,
  });
  return bundle;
}

describe('session logs attached when final', () => {
  it('attaches the log of a session when it closes, with the SHA-256 of its bytes then', async () => {
    const visit = await visits.open({ site: 'Harbour roof' });
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' });
    await manager.close(info.id);
    const log = await readFile(info.logPath!);
    const kinds = entriesOf(visit.id).map((entry) => entry.kind);
    expect(kinds.slice(-2)).toEqual(['terminal-closed', 'log-attached']);
    expect(entriesOf(visit.id).at(-1)).toEqual({
      kind: 'log-attached',
      logFile: info.logPath!.split('/').pop(),
      sha256: sha256Of(log),
      bytes: log.length,
      sessionId: info.id,
      gateway: { gatewayId: 'gw-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD', typed: 'acme-gw-0013' },
    });
  });

  it('attaches an open session’s log before the visit is closed, and the closed visit’s bundle verifies', async () => {
    const visit = await visits.open({ site: 'Harbour roof' });
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' });
    await visitHandlers()['visit:close'](undefined, { channel: 'visit:close' });
    const entries = entriesOf(visit.id);
    expect(entries.map((entry) => entry.kind).slice(-2)).toEqual(['log-attached', 'visit-closed']);
    const attached = entries.at(-2) as Extract<VisitEntry, { kind: 'log-attached' }>;
    expect(attached.sessionId).toBe(info.id);
    expect(attached.sha256).toBe(sha256Of(await readFile(info.logPath!)));
    // The session goes on after the visit: its log grows, the closed visit keeps the bytes it attached.
    await writeFile(info.logPath!, 'later output\n', { flag: 'a' });

    const bundle = await bundleOfClosedVisit(visit.id);
    expect(await readFile(join(bundle, 'logs', attached.logFile))).toHaveLength(attached.bytes);
    const verdict = await verifyBundle(bundle);
    expect(verdict).toMatchObject({
      isIntact: true,
      problems: [],
      files: { reports: 1, photos: 0, logs: 1 },
    });
  });

  it('names the log of a closed visit’s bundle that was changed', async () => {
    const visit = await visits.open({ site: 'Harbour roof' });
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' });
    await manager.close(info.id);
    await visits.close();
    const bundle = await bundleOfClosedVisit(visit.id);
    const name = info.logPath!.split('/').pop()!;
    await writeFile(join(bundle, 'logs', name), 'nothing happened here\n');
    const verdict = await verifyBundle(bundle);
    expect(verdict.isIntact).toBe(false);
    expect(verdict.problems).toEqual([`log ${name} was changed: its SHA-256 is not the one recorded`]);
  });

  it('attaches at an export of the open visit only what is new, never one log twice with one hash', async () => {
    const visit = await visits.open({ site: 'Harbour roof' });
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' });
    const logs = [{ path: info.logPath!, sessionId: info.id }];
    await gatherVisitEvidence(visits, logs, resolve);
    await gatherVisitEvidence(visits, logs, resolve);
    const attachedCount = () => entriesOf(visit.id).filter((entry) => entry.kind === 'log-attached').length;
    expect(attachedCount()).toBe(1);
    // Output since the last export is attached again, with its new hash.
    await writeFile(info.logPath!, '# uptime\n', { flag: 'a' });
    const evidence = await gatherVisitEvidence(visits, logs, resolve);
    expect(attachedCount()).toBe(2);
    expect(evidence.logs).toEqual([
      { fileName: info.logPath!.split('/').pop(), bytes: await readFile(info.logPath!) },
    ]);
    // Closing the session, its log unchanged since, attaches nothing more.
    await manager.close(info.id);
    expect(attachedCount()).toBe(2);
  });
});
