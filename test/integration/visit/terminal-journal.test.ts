import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import {
  createGatewayResolver,
  createTerminalJournal,
  JournalWriteError,
  Visits,
  type KnownGateway,
  type VisitRecorder,
} from '../../../electron/services/visit';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { HEALTHY_NETWORK } from '../../../simulator/shell/gateway-network';
import { healthInWords } from '../../helpers/triage-words';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

// Terminal sessions and serial triages recorded in the visit journal as they happen: a real serial console of a
// simulated gateway with no Ethernet link on a socat pty, the real SerialPorts and TerminalManager, the real
// journal on disk; the gateway typed by its MAC is named by the site pack's identity.

const PACKED: KnownGateway[] = [
  { id: 'gw-13', name: 'acme-gw-0013', mac: '647FDAFFFE001CAD' },
  { id: 'gw-14', name: 'acme-gw-0014', mac: '647FDAFFFE001CAE' },
];
const ROOT_PASSWORD = 'label-password-13';

let directory: string;
let visits: Visits;
let serialPorts: SerialPorts;
let gatewayConsole: AttachedSerialConsole;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'fieldkit-terminal-journal-'));
  visits = new Visits({ dataDir: directory });
  await visits.load();
  serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
  gatewayConsole = await attachSerialConsole({
    gateway: {
      gatewayId: 'gw-13',
      hostname: 'acme-gw-0013',
      bspVersion: '5.1.0',
      rootPassword: ROOT_PASSWORD,
    },
    shellContext: { network: () => ({ ...HEALTHY_NETWORK, hasEthernetLink: false, activeLink: 'cellular' }) },
    linkPath: join(directory, 'console'),
  });
});

afterEach(async () => {
  await serialPorts.closeAll();
  await gatewayConsole.close();
  await visits.shutdown();
  await rm(directory, { recursive: true, force: true });
});

function managerRecordingIn(recorder: VisitRecorder): TerminalManager {
  return new TerminalManager({
    events: { emit: () => undefined },
    ...serialOnlyTerminals(serialPorts),
    journal: createTerminalJournal({
      recorder,
      resolve: createGatewayResolver({ pack: async () => PACKED }),
    }),
  });
}

/** The open visit's entries of one kind, as on disk now. */
function entriesOf<Kind extends VisitEntry['kind']>(kind: Kind): Array<Extract<VisitEntry, { kind: Kind }>> {
  const open = visits.current();
  if (!open) return [];
  return visits
    .entries(open.id)
    .map((line) => line.entry as VisitEntry)
    .filter((entry): entry is Extract<VisitEntry, { kind: Kind }> => entry.kind === kind);
}

describe('terminal sessions and triages in the visit journal', () => {
  it('records the session opened, under the pack gateway its typed MAC names, before the open resolves', async () => {
    const manager = managerRecordingIn(visits);
    const info = await manager.openSerial({
      path: gatewayConsole.linkPath,
      gateway: '64:7f:da:ff:fe:00:1c:ad',
    });
    expect(entriesOf('terminal-opened')).toEqual([
      {
        kind: 'terminal-opened',
        sessionId: info.id,
        transport: 'serial',
        title: info.title,
        gateway: {
          gatewayId: 'gw-13',
          name: 'acme-gw-0013',
          mac: '647FDAFFFE001CAD',
          typed: '64:7f:da:ff:fe:00:1c:ad',
        },
        logFile: info.logPath,
      },
    ]);
  });

  it('records the triage with its fault named before the result is reported', async () => {
    const manager = managerRecordingIn(visits);
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'ACME-GW-0013' });
    const result = await manager.collectDiagnostics(info.id, { password: ROOT_PASSWORD });
    const [recorded] = entriesOf('triage');
    expect(recorded?.gateway).toEqual({
      gatewayId: 'gw-13',
      name: 'acme-gw-0013',
      mac: '647FDAFFFE001CAD',
      typed: 'ACME-GW-0013',
    });
    expect(recorded?.result).toEqual(result);
    expect(healthInWords(recorded!.result.health).findings).toContainEqual({
      status: 'fault',
      text: 'Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    });
  });

  it('records the close with the log file and its SHA-256 before the close resolves', async () => {
    const manager = managerRecordingIn(visits);
    const info = await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' });
    await manager.close(info.id);
    const log = await readFile(info.logPath!);
    expect(entriesOf('terminal-closed')).toEqual([
      {
        kind: 'terminal-closed',
        sessionId: info.id,
        logFile: info.logPath,
        logSha256: createHash('sha256').update(log).digest('hex'),
      },
    ]);
  });

  it('keeps what was typed for a gateway neither the server nor the pack knows', async () => {
    const manager = managerRecordingIn(visits);
    await manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'shed gateway' });
    expect(entriesOf('terminal-opened')[0]?.gateway).toEqual({ typed: 'shed gateway' });
  });

  it('refuses the open and closes the port again when the journal cannot record it', async () => {
    const manager = managerRecordingIn({ append: () => Promise.reject(new JournalWriteError('ENOSPC')) });
    await expect(
      manager.openSerial({ path: gatewayConsole.linkPath, gateway: 'acme-gw-0013' }),
    ).rejects.toThrow('the disk is full');
    expect(manager.list()).toEqual([]);
    // The port was given back: it opens again.
    const again = await serialPorts.open({ path: gatewayConsole.linkPath });
    expect(again.state).toBe('open');
  });
});
