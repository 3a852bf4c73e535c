import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAuditSink } from '../../../electron/services/audit';
import { SSH_LOCKOUT_CONFIRMATION, WAN_LOCKOUT_CONFIRMATION } from '../../../electron/services/commands';
import {
  GatewayTasks,
  GuardNotConfirmedError,
  cellularWizard,
  connectivityWizard,
  createWizardRun,
  firewallWizard,
  type GatewayRunOptions,
  type WizardEvent,
} from '../../../electron/services/commissioning';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { gatewaysWhere, healthyGateway, startSimulatorSession } from './simulator-session';

const SIMULATOR_COMMAND_TIMEOUT_MS = 300;
const REBOOT_MS = 1_500;

describe('commissioning against the simulator', () => {
  let simulator: RunningSimulator;
  let session: Session;
  let audit: MemoryAuditSink;

  beforeAll(async () => {
    ({ simulator, session } = await startSimulatorSession({
      commandTimeoutMs: SIMULATOR_COMMAND_TIMEOUT_MS,
      rebootMs: REBOOT_MS,
      upgradeMs: 1_000,
      gateways: 40,
    }));
  });
  afterAll(() => simulator.close());

  const options = (overrides: Partial<GatewayRunOptions> = {}): GatewayRunOptions => {
    audit = new MemoryAuditSink();
    return {
      commander: session,
      profileId: 'demo',
      user: 'provider@fieldkit.demo',
      audit,
      commandTimeoutMs: 5_000,
      verifyTimeoutMs: 8_000,
      gatewayReturnTimeoutMs: 15_000,
      waitInitialDelayMs: 100,
      waitMaxDelayMs: 400,
      pollIntervalMs: 250,
      ...overrides,
    };
  };

  it('applies a firewall change after a safety backup and verifies it by reading back', async () => {
    const gateway = healthyGateway(simulator, 0);
    const run = createWizardRun(firewallWizard, gateway.id, options());
    const state = await run.read();
    const result = await run.apply({ ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 42 } });
    expect(result.outcome).toBe('applied');
    expect((await session.command(gateway.id, 'getFirewallConfiguration', {})) as object).toMatchObject({
      doSPrevention: { burstLimit: 42 },
    });
    const { backups } = await session.command(gateway.id, 'getBackups', {});
    expect(backups.map((backup) => backup.description)).toContain(result.backup?.description);
  });

  it('refuses to disable SSH under a terminal until the exact confirmation is typed', async () => {
    const gateway = healthyGateway(simulator, 1);
    const run = createWizardRun(
      firewallWizard,
      gateway.id,
      options({ environment: { hasSshTerminal: () => true } }),
    );
    const state = await run.read();
    const edit = { ...state, ssh: { enabled: false } };
    await expect(run.apply(edit)).rejects.toBeInstanceOf(GuardNotConfirmedError);
    expect(
      ((await session.command(gateway.id, 'getFirewallConfiguration', {})) as { ssh: { enabled: boolean } })
        .ssh.enabled,
    ).toBe(true);
    const result = await run.apply(edit, { 'ssh-lockout': SSH_LOCKOUT_CONFIRMATION });
    expect(result.outcome).toBe('applied');
    expect(
      ((await session.command(gateway.id, 'getFirewallConfiguration', {})) as { ssh: { enabled: boolean } })
        .ssh.enabled,
    ).toBe(false);
  });

  it('says the new APN got no data call and that the data call connected again on the old one', async () => {
    const gateway = healthyGateway(simulator, 2);
    // Long enough for the simulated modem to attach (4 s) once the previous APN is back.
    const run = createWizardRun(cellularWizard, gateway.id, options({ verifyTimeoutMs: 6_000 }));
    const state = await run.read();
    expect(state.callStatus).toBe('CONNECTED');
    const working = state.apns.find((apn) => apn.idx === state.workingIdx)!;
    const result = await run.apply({ apns: [{ idx: working.idx, name: 'iot.wrong' }] });
    expect(result.outcome).toBe('rolled-back');
    expect(result.message).toMatch(
      new RegExp(
        `^The new APN "iot\\.wrong" got no data call within 6 s; rolled back to "${escapeRegExp(working.name)}" — data call connected again \\(IP address [0-9.]+\\)\\.$`,
      ),
    );
    expect(audit.entries.filter((entry) => entry.name === 'cellular').at(-1)?.error).toBe(result.message);
    const { apns } = await session.command(gateway.id, 'getWmApns', {});
    expect(apns.map((apn) => apn.name)).toEqual([working.name]);
  });

  it('says so when the data call has not come back on the old APN within the time limit', async () => {
    const gateway = healthyGateway(simulator, 8);
    const run = createWizardRun(cellularWizard, gateway.id, options({ verifyTimeoutMs: 2_000 }));
    const state = await run.read();
    const working = state.apns.find((apn) => apn.idx === state.workingIdx)!;
    const result = await run.apply({ apns: [{ idx: working.idx, name: 'iot.wrong' }] });
    expect(result.outcome).toBe('rolled-back');
    expect(result.message).toBe(
      `The new APN "iot.wrong" got no data call within 2 s; rolled back to "${working.name}" — but the data call has not connected again (NOT CONNECTED): check the SIM and the antenna before leaving.`,
    );
  });

  it('fixes a wrong APN and verifies the data call is CONNECTED with an IP address', async () => {
    const gateway = gatewaysWhere(
      simulator,
      (entity) => !entity.isOfflineFromStart && entity.hasEthernetLink && entity.index % 4 === 1,
    )[0]!;
    const run = createWizardRun(cellularWizard, gateway.id, options());
    const state = await run.read();
    expect(state.callStatus).toBe('NOT CONNECTED');
    const result = await run.apply({ apns: [{ idx: state.apns[0]!.idx, name: gateway.simApn }] });
    expect(result.outcome).toBe('applied');
    expect(result.checks.at(-1)?.detail).toMatch(/^CONNECTED with IP address \d+\.\d+\.\d+\.\d+ on APN /);
  });

  it('changes the ping target and verifies it with a ping from the gateway', async () => {
    const gateway = healthyGateway(simulator, 3);
    const run = createWizardRun(connectivityWizard, gateway.id, options());
    const state = await run.read();
    const result = await run.apply({ ...state, pingTarget: '1.1.1.1' });
    expect(result.outcome).toBe('applied');
    expect(result.checks.map((check) => `${check.name}: ${check.ok}`)).toEqual([
      'Read back: true',
      'Ping 1.1.1.1: true',
    ]);
  });

  it('waits through the reboot a gateway does when both links fail, and reports the rollback', async () => {
    // Ethernet works but the APN is wrong: making cellular both preferred and fallback leaves no working link.
    const gateway = gatewaysWhere(
      simulator,
      (entity) => !entity.isOfflineFromStart && entity.hasEthernetLink && entity.index % 4 === 1,
    )[1]!;
    const run = createWizardRun(connectivityWizard, gateway.id, options());
    const events: WizardEvent[] = [];
    run.on('event', (event) => events.push(event));
    const state = await run.read();
    const cellular = state.types.find((type) => type.type === 'Cellular')!.index;
    const edit = { ...state, preferredIdx: cellular, fallbackIdx: cellular };
    // Ethernet, the link in use, leaves the pair: the WAN lockout guard asks for its typed text first.
    expect(run.review(edit).guards.map((guard) => guard.confirmationText)).toEqual([
      WAN_LOCKOUT_CONFIRMATION,
    ]);
    const result = await run.apply(edit, { 'wan-lockout': WAN_LOCKOUT_CONFIRMATION });
    expect(result.outcome).toBe('rolled-back');
    expect(events.some((event) => event.type === 'step' && event.step === 'waiting')).toBe(true);
    const types = await session.command(gateway.id, 'getConnectivityTypes', {});
    expect(types.find((type) => type.preferred)?.index).toBe(state.preferredIdx);
  });

  it('explains an offline gateway instead of crashing', async () => {
    const gateway = gatewaysWhere(simulator, (entity) => entity.isOfflineFromStart)[0]!;
    const run = createWizardRun(firewallWizard, gateway.id, options({ gatewayReturnTimeoutMs: 1_000 }));
    await expect(run.read()).rejects.toThrow(
      new RegExp(
        `Gateway ${gateway.id} did not answer for \\d+ sec: it may be powered off, rebooting, or without a working WAN link`,
      ),
    );
    expect(
      audit.entries.some((entry) => entry.outcome === 'failed' && /did not answer/.test(entry.error ?? '')),
    ).toBe(true);
  });

  it('reboots a gateway and waits until it is back', async () => {
    const gateway = healthyGateway(simulator, 4);
    const tasks = new GatewayTasks(gateway.id, options());
    const result = await tasks.reboot();
    expect(result.outcome).toBe('ok');
    expect(result.waitedMs).toBeGreaterThanOrEqual(REBOOT_MS - 100);
  });

  it('upgrades every package, following progress through the reboot it causes', async () => {
    const gateway = healthyGateway(simulator, 5);
    const tasks = new GatewayTasks(gateway.id, options());
    const before = await session.command(gateway.id, 'getUpgradableSoftware', {});
    expect(before.length).toBeGreaterThan(0);
    const fractions: number[] = [];
    tasks.on('event', (event) => {
      if (event.type === 'progress' && event.fraction !== undefined) fractions.push(event.fraction);
    });
    const result = await tasks.upgrade();
    expect(result.outcome).toBe('ok');
    expect(result.message).toMatch(
      /^Upgraded (\S+ \S+ → \S+, )*kona-pkt-forwarder 4\.2\.1 → 4\.3\.0(, \S+ \S+ → \S+)*; the gateway was away for \d+ sec while it restarted\.$/,
    );
    expect(fractions.at(-1)).toBe(1);
    expect(await session.command(gateway.id, 'getUpgradableSoftware', {})).toEqual([]);
  });

  it('installs a package and finds it installed once the gateway is back', async () => {
    const gateway = healthyGateway(simulator, 7);
    const tasks = new GatewayTasks(gateway.id, options());
    const [offered] = await session.command(gateway.id, 'getInstallableSoftware', {});
    const result = await tasks.install(offered!.name);
    expect(result.outcome).toBe('ok');
    const installable = await session.command(gateway.id, 'getInstallableSoftware', {});
    expect(installable.map((item) => item.name)).not.toContain(offered!.name);
  });

  it('creates a backup and restores it, waiting for the gateway to come back', async () => {
    const gateway = healthyGateway(simulator, 6);
    const tasks = new GatewayTasks(gateway.id, options());
    const created = await tasks.createBackup('before the roof job');
    expect(created.outcome).toBe('ok');
    const restored = await tasks.restoreBackup(created.index!);
    expect(restored.outcome).toBe('ok');
    expect(restored.message).toMatch(/answered again after/);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
