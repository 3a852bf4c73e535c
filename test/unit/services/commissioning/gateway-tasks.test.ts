import { describe, expect, it } from 'vitest';
import { MemoryAuditSink } from '../../../../electron/services/audit';
import { GatewayTasks, parseBackupDate, type TaskEvent } from '../../../../electron/services/commissioning';
import { interceptCommands } from '../../../helpers/commander';
import { createSimulatedGateway, type SimulatedGateway } from '../../../helpers/simulated-gateway';

function createTasks(gateway: SimulatedGateway) {
  const audit = new MemoryAuditSink();
  const tasks = new GatewayTasks('gw-1', {
    commander: gateway.commander,
    profileId: 'demo',
    user: 'tech@example.com',
    audit,
    pollIntervalMs: 1,
    waitInitialDelayMs: 1,
    waitMaxDelayMs: 5,
    gatewayReturnTimeoutMs: 2_000,
  });
  const events: TaskEvent[] = [];
  tasks.on('event', (event) => events.push(event));
  return { tasks, audit, events };
}

describe('GatewayTasks', () => {
  it('reboots and waits until the gateway answers again', async () => {
    const gateway = createSimulatedGateway();
    const { tasks, events } = createTasks(gateway);
    const result = await tasks.reboot();
    expect(result).toMatchObject({ task: 'reboot', outcome: 'ok' });
    expect(result.message).toMatch(/restarted and answered again after \d+ s/);
    expect(events.some((event) => event.type === 'waiting')).toBe(true);
  });

  it('says what a reboot waits for, with the time left, from the moment the command is sent', async () => {
    const gateway = createSimulatedGateway();
    const { tasks, events } = createTasks(gateway);
    // What the technician sees at the moment the reboot goes out.
    const shownWhenSent: TaskEvent[] = [];
    const command = gateway.commander.command.bind(gateway.commander);
    gateway.commander.command = (gatewayId, name, ...rest) => {
      if (name === 'reboot') shownWhenSent.push(...events);
      return command(gatewayId, name, ...rest);
    };
    await tasks.reboot();
    const current = shownWhenSent.at(-1);
    expect(current).toMatchObject({
      type: 'waiting',
      notice: { message: expect.stringMatching(/^Waiting for/) },
    });
    expect(current?.type === 'waiting' && current.notice.deadlineAt).toBeGreaterThan(current?.at ?? Infinity);
  });

  it('follows an upgrade through its progress and the reboot it causes', async () => {
    // Healthy, every package current but kona-pkt-forwarder, which has 4.3.0 offered.
    const gateway = createSimulatedGateway({ scenario: ['stale-software'] });
    const { tasks, events } = createTasks(gateway);
    const result = await tasks.upgrade();
    expect(result.outcome).toBe('ok');
    expect(gateway.calls.find((call) => call.name === 'upgradeSoftware')?.request).toEqual({
      packageToUpgrade: 'all',
    });
    const fractions = events.flatMap((event) =>
      event.type === 'progress' && event.fraction !== undefined ? [event.fraction] : [],
    );
    expect(fractions).toContain(0.5);
    expect(fractions.at(-1)).toBe(1);
    expect(result.message).toMatch(
      /^Upgraded kona-pkt-forwarder 4\.2\.1 → 4\.3\.0; the gateway was away for \d+ sec while it restarted\.$/,
    );
    expect(result).toMatchObject({
      before: { 'kona-pkt-forwarder': '4.2.1' },
      after: { 'kona-pkt-forwarder': '4.3.0' },
    });
  });

  it('fails an upgrade the gateway calls finished while the package keeps its old version', async () => {
    const gateway = createSimulatedGateway();
    gateway.faults.keepsVersions = true;
    const { tasks } = createTasks(gateway);
    const result = await tasks.upgrade('kona-pkt-forwarder');
    expect(result).toMatchObject({
      outcome: 'failed',
      message: 'The gateway reports it finished, but kona-pkt-forwarder 4.2.1 is still installed',
    });
  });

  it('reports a refused upgrade in words', async () => {
    const gateway = createSimulatedGateway();
    gateway.faults.refusedCommands.add('upgradeSoftware');
    const { tasks } = createTasks(gateway);
    const result = await tasks.upgrade('kona-pkt-forwarder');
    expect(result).toMatchObject({
      outcome: 'failed',
      message: 'The gateway refused the request: upgradeSoftware refused',
    });
  });

  it('restores a backup and waits for the gateway to come back', async () => {
    const gateway = createSimulatedGateway();
    const { tasks, audit } = createTasks(gateway);
    const result = await tasks.restoreBackup(0);
    expect(result.outcome).toBe('ok');
    expect(audit.entries.at(-1)).toMatchObject({ kind: 'wizard', name: 'restoreBackup', outcome: 'ok' });
  });

  it('lists backups newest first with their dates as time', async () => {
    const gateway = createSimulatedGateway();
    const { tasks } = createTasks(gateway);
    await tasks.createBackup('before the roof job');
    const backups = await tasks.listBackups();
    expect(backups.map((backup) => backup.description)).toEqual(['before the roof job', 'factory-default']);
    expect(backups[0]?.dateMs).toBe(Date.UTC(2026, 0, 15, 12));
  });

  it('reads every radio by the antenna count when no index is given', async () => {
    const gateway = createSimulatedGateway();
    let asked: number[] = [];
    interceptCommands(gateway.commander, async ({ name, request }) => {
      if (name === 'getAntennasCount') return { antennasCount: 2, status: 'OK' };
      if (name === 'getRadioStatistics') {
        asked = [...asked, (request as { index: number }).index];
        return {
          numTxPackets: 1,
          numRxPackets: 2,
          rxFineTimestamp: 0,
          rxNoFineTimestamp: 0,
          rxCrcOkPackets: 2,
          rxCrcErrPackets: 0,
          noMatch: 0,
        };
      }
      return undefined;
    });
    const { tasks } = createTasks(gateway);
    const statistics = await tasks.readRadioStatistics();
    expect(statistics.map((item) => item.index)).toEqual([0, 1]);
    expect(asked).toEqual([0, 1]);
  });
});

describe('GatewayTasks spectral scan', () => {
  it('follows the scan progress and then reads the results', async () => {
    const gateway = createSimulatedGateway();
    const progress = [10, 60, 100];
    interceptCommands(gateway.commander, async ({ name }) => {
      if (name === 'getSpectralScanParams')
        return {
          antenna: 0,
          samplePeriod: 1,
          num125kChan: 8,
          startFreq125k: 902,
          stepFreq125k: 1,
          num500kChan: 0,
          startFreq500k: 0,
          stepFreq500k: 0,
          minRx: -130,
          maxRx: -30,
        };
      if (name === 'getSpectralScanProgress') {
        const percent = progress.shift() ?? 100;
        return { status: percent < 100 ? 'IN_PROGRESS' : 'COMPLETED', progress: percent };
      }
      if (name === 'getSpectralScanResults') return { channels: [{ frequency: 902.3, rssi: -112 }] };
      return undefined;
    });
    const { tasks, events } = createTasks(gateway);
    const scan = await tasks.spectralScan();
    expect(scan.results).toEqual({ channels: [{ frequency: 902.3, rssi: -112 }] });
    const messages = events.flatMap((event) => (event.type === 'progress' ? [event.message] : []));
    expect(messages).toEqual([
      'Spectral scan 10 % done',
      'Spectral scan 60 % done',
      'Spectral scan finished',
    ]);
  });
});

describe('parseBackupDate', () => {
  it('reads a local date-time without zone as UTC and refuses nonsense', () => {
    expect(parseBackupDate('2026-01-15T12:00:00')).toBe(Date.UTC(2026, 0, 15, 12));
    expect(parseBackupDate('2026-01-15T12:00:00+01:00')).toBe(Date.UTC(2026, 0, 15, 11));
    expect(parseBackupDate('yesterday')).toBeNull();
  });
});
