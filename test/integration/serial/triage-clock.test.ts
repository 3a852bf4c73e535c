import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOfflineCard, DEFAULT_ACCEPTANCE_TABLE } from '../../../electron/services/acceptance';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import { t } from '../../../electron/shared/i18n';
import { triageFindingWords } from '../../../electron/shared/terminal/triage-words';
import { acceptanceItemWords } from '../../../electron/shared/visit/acceptance-words';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

describe("the gateway's clock read by the serial triage over a pty", () => {
  // One clock for the simulator and the laptop: the skew seen is the scenario's alone, to the second.
  const clock = new ManualClock(SIMULATED_START_MS);
  let simulator: RunningSimulator;
  let directory: string;
  let serialPorts: SerialPorts;
  let attached: AttachedSerialConsole;
  let manager: TerminalManager;

  beforeAll(async () => {
    simulator = await startSimulator({ gateways: 12, port: 0, clock });
  });
  afterAll(async () => {
    await simulator.close();
  });
  afterEach(async () => {
    await manager.closeAll();
    await attached.close();
    await rm(directory, { recursive: true, force: true });
  });

  /** Puts the gateway's console on a socat pty (as `--serial id=path`) and collects diagnostics on it as the app does. */
  async function collectDiagnostics(gatewayId: string) {
    directory = await mkdtemp(join(tmpdir(), 'triage-clock-'));
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
    const console = simulator.serialConsoleOf(gatewayId);
    attached = await attachSerialConsole({ ...console, linkPath: join(directory, 'console') });
    manager = new TerminalManager({
      // Plays the renderer: every output event is acknowledged, so the port keeps being read.
      events: {
        emit: (event, payload) => {
          if (event !== 'terminal:data') return;
          const { id, data } = payload as { id: string; data: Uint8Array };
          queueMicrotask(() => manager.acknowledge(id, data.byteLength));
        },
      },
      ...serialOnlyTerminals(serialPorts),
      rootPassword: async () => console.gateway.rootPassword,
      wallClock: () => clock.now(),
    });
    const info = await manager.openSerial({ path: attached.linkPath, gateway: gatewayId });
    const triage = await manager.collectDiagnostics(info.id);
    const card = buildOfflineCard({ gatewayId, triage, table: DEFAULT_ACCEPTANCE_TABLE, now: clock.now() });
    return { triage, clockItem: card.items.find((item) => item.id === 'clock')! };
  }

  function onlineGateway(index: number): string {
    const gateway = simulator.world.tenant.gateways.filter((entity) => !entity.isOfflineFromStart)[index];
    if (!gateway) throw new Error(`the demo tenant has no online gateway number ${index}`);
    return gateway.id;
  }

  it('names a clock 7 min 12 s behind as a fault, and the offline card says no-go with the fix', async () => {
    const gatewayId = onlineGateway(0);
    simulator.world.fleet.setScenario(gatewayId, ['clock-skew']);
    const { triage, clockItem } = await collectDiagnostics(gatewayId);
    expect(triage.outcome).toBe('complete');
    expect(
      triage.health.findings
        .filter((finding) => finding.status === 'fault')
        .map((finding) => triageFindingWords(finding)),
    ).toContain("The gateway's clock is 7 min 12 s behind this laptop's.");
    expect(triage.health.clock).toEqual({
      gatewayTime: SIMULATED_START_MS - 432_000,
      laptopTime: SIMULATED_START_MS,
    });
    expect(clockItem.verdict).toBe('no-go');
    expect(acceptanceItemWords(clockItem, t)).toMatchObject({
      findings: [
        "The gateway's clock is 7 min 12 s behind this laptop's.",
        'More than 120 s apart is a no-go.',
      ],
      fix: expect.stringMatching(/NTP/),
    });
  });

  it('finds the clock in step on a gateway without the scenario: the Clock item is go', async () => {
    const { triage, clockItem } = await collectDiagnostics(onlineGateway(1));
    expect(triage.health.findings.map((finding) => triageFindingWords(finding))).toContain(
      "The gateway's clock matches this laptop's.",
    );
    expect(clockItem.verdict).toBe('go');
    expect(clockItem.fix).toBeUndefined();
  });
});
