import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../../electron/services/api';
import { MemoryAuditSink } from '../../../../electron/services/audit';
import { PING_LOCKOUT_CONFIRMATION, SSH_LOCKOUT_CONFIRMATION } from '../../../../electron/services/commands';
import {
  EditRejectedError,
  GuardNotConfirmedError,
  cellularWizard,
  connectivityWizard,
  createWizardRun,
  firewallWizard,
  type WizardDefinition,
  type WizardEvent,
  type WizardRunOptions,
} from '../../../../electron/services/commissioning';
import { interceptCommands } from '../../../helpers/commander';
import {
  COMMAND_STEP_MS,
  createSimulatedGateway,
  driven,
  type SimulatedGateway,
} from '../../../helpers/simulated-gateway';

function runOptions(commander: WizardRunOptions['commander'], overrides: Partial<WizardRunOptions> = {}) {
  const audit = new MemoryAuditSink();
  const options: WizardRunOptions = {
    commander,
    profileId: 'demo',
    user: 'tech@example.com',
    audit,
    verifyTimeoutMs: 300,
    pollIntervalMs: 5,
    waitInitialDelayMs: 1,
    waitMaxDelayMs: 5,
    gatewayReturnTimeoutMs: 2_000,
    ...overrides,
  };
  return { options, audit };
}

/**
 * A run on the gateway's own clock, with a verification window of ten commands: it polls the gateway until the
 * change shows or the window closes, however fast the machine is (the test drives it with `driven`).
 */
function onGatewayTime(gateway: SimulatedGateway): Partial<WizardRunOptions> {
  return { clock: gateway.clock, verifyTimeoutMs: 10 * COMMAND_STEP_MS, pollIntervalMs: COMMAND_STEP_MS };
}

async function startRun<State, Edit>(
  definition: WizardDefinition<State, Edit>,
  commander: WizardRunOptions['commander'],
  overrides: Partial<WizardRunOptions> = {},
) {
  const { options, audit } = runOptions(commander, overrides);
  const run = createWizardRun(definition, 'gw-1', options);
  const events: WizardEvent[] = [];
  run.on('event', (event) => events.push(event));
  const state = await run.read();
  return { run, state, events, audit };
}

describe('WizardRun with the firewall wizard', () => {
  it('backs up, applies, reads back and reports the change as applied', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    const result = await run.apply({ ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 50 } });
    expect(result.outcome).toBe('applied');
    expect(result.changes).toEqual([
      { path: 'doSPrevention.burstLimit', label: 'DoS burst limit', before: 100, after: 50 },
    ]);
    expect(gateway.state.configuration.firewall.doSPrevention.burstLimit).toBe(50);
    expect(result.backup?.description).toMatch(/^fieldkit-before-firewall-\d{4}-\d{2}-\d{2}T/);
    expect(gateway.names().indexOf('createBackup')).toBeLessThan(
      gateway.names().indexOf('setFirewallConfiguration'),
    );
  });

  it('rolls back and says so when the read-back does not match', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    gateway.faults.ignoredChanges.add('setFirewallConfiguration');
    const edited = { ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 50 } };
    // The gateway keeps the old value: verification fails, the previous values read back unchanged.
    const result = await run.apply(edited);
    expect(result.outcome).toBe('rolled-back');
    expect(result.rollback).toBe('values');
    expect(result.message).toMatch(/Verification failed: Read back: DoS burst limit reads 100, expected 50/);
    expect(result.message).toMatch(/previous settings were put back/);
  });

  it('asks for the typed confirmation before disabling SSH while a terminal depends on it', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander, {
      environment: { hasSshTerminal: (gatewayId) => gatewayId === 'gw-1' },
    });
    const edit = { ...state, ssh: { enabled: false } };
    const review = run.review(edit);
    expect(review.warnings.join(' ')).toMatch(/SSH will be refused/);
    expect(review.guards).toEqual([
      expect.objectContaining({ id: 'ssh-lockout', confirmationText: SSH_LOCKOUT_CONFIRMATION }),
    ]);
    await expect(run.apply(edit, { 'ssh-lockout': 'disable ssh' })).rejects.toBeInstanceOf(
      GuardNotConfirmedError,
    );
    expect(gateway.names()).not.toContain('setFirewallConfiguration');
    const result = await run.apply(edit, { 'ssh-lockout': SSH_LOCKOUT_CONFIRMATION });
    expect(result.outcome).toBe('applied');
    expect(gateway.state.configuration.firewall.ssh.enabled).toBe(false);
  });

  it('asks for a typed confirmation before blocking ping that the connectivity check needs', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    const edit = { ...state, ping: { ...state.ping, enabled: false } };
    expect(run.review(edit).guards.map((guard) => guard.confirmationText)).toEqual([
      PING_LOCKOUT_CONFIRMATION,
    ]);
    await expect(run.apply(edit)).rejects.toThrow(/Type the confirmation/);
  });

  it('needs no confirmation to disable SSH when no terminal depends on it', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander, {
      environment: { hasSshTerminal: () => false },
    });
    expect(run.review({ ...state, ssh: { enabled: false } }).guards).toEqual([]);
  });

  it('refuses an edit that breaks the schema before sending anything', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    const edit = { ...state, doSPrevention: { ...state.doSPrevention, perMinLimit: -1 } };
    await expect(run.apply(edit)).rejects.toBeInstanceOf(EditRejectedError);
    expect(gateway.names()).not.toContain('createBackup');
  });

  it('changes nothing and takes no backup when the edit equals the current state', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    const result = await run.apply(structuredClone(state));
    expect(result.outcome).toBe('unchanged');
    expect(gateway.names()).not.toContain('createBackup');
  });

  it('changes nothing when the safety backup cannot be made, and says why', async () => {
    const gateway = createSimulatedGateway();
    gateway.faults.refusedCommands.add('createBackup');
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    const result = await run.apply({ ...state, enabled: false });
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/Nothing was changed: the safety backup could not be made/);
    expect(gateway.names()).not.toContain('setFirewallConfiguration');
  });

  it('changes nothing when the gateway stops answering before the backup, and explains the timeout', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    gateway.faults.unansweredCommands = Number.POSITIVE_INFINITY;
    const result = await run.apply({ ...state, enabled: false });
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(
      /^Nothing was changed: the safety backup could not be made\. The gateway did not answer command createBackup in time/,
    );
  });

  it('restores the safety backup when putting the values back fails', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(firewallWizard, gateway.commander);
    // The set "succeeds" with a wrong result, and then the gateway refuses every further set.
    let sets = 0;
    interceptCommands(gateway.commander, async ({ name }) => {
      if (name === 'setFirewallConfiguration' && sets++ === 0) {
        const { configuration } = gateway.state;
        configuration.firewall = { ...configuration.firewall, enabled: false, ssh: { enabled: false } };
        return { status: 'OK' };
      }
      if (name === 'setFirewallConfiguration') gateway.faults.refusedCommands.add(name);
      return undefined;
    });
    const result = await run.apply({ ...state, enabled: false });
    expect(result.outcome).toBe('rolled-back');
    expect(result.rollback).toBe('backup');
    expect(gateway.names()).toContain('restoreBackup');
    expect(gateway.state.configuration.firewall.enabled).toBe(true);
    expect(result.message).toMatch(/safety backup .* was restored/);
  });

  it('is cancelled before anything changes when cancelled before apply', async () => {
    const gateway = createSimulatedGateway();
    const controller = new AbortController();
    const { run, state } = await startRun(firewallWizard, gateway.commander, { signal: controller.signal });
    controller.abort();
    const result = await run.apply({ ...state, enabled: false });
    expect(result.outcome).toBe('cancelled');
    expect(result.message).toBe('Cancelled before anything was changed.');
    expect(gateway.state.configuration.firewall.enabled).toBe(true);
  });

  it('records every command and the result in the audit log under one run id', async () => {
    const gateway = createSimulatedGateway();
    const { run, state, audit } = await startRun(firewallWizard, gateway.commander);
    await run.apply({ ...state, enabled: false });
    const names = audit.entries.map((entry) => `${entry.kind}:${entry.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'wizard:firewall:backing-up',
        'command:createBackup',
        'wizard:firewall:applying',
        'command:setFirewallConfiguration',
        'wizard:firewall:verifying',
        'wizard:firewall',
      ]),
    );
    expect(new Set(audit.entries.map((entry) => entry.runId))).toEqual(new Set([run.runId]));
    const final = audit.entries.find((entry) => entry.name === 'firewall');
    expect(final).toMatchObject({ outcome: 'ok', before: { enabled: true }, after: { enabled: false } });
  });

  it('emits the steps a UI renders, in order', async () => {
    const gateway = createSimulatedGateway();
    const { run, state, events } = await startRun(firewallWizard, gateway.commander);
    await run.apply({ ...state, enabled: false });
    const steps = events
      .filter((event) => event.type === 'step')
      .map((event) => (event.type === 'step' ? event.step : ''));
    expect(steps).toEqual([
      'reading',
      'editing',
      'reviewing',
      'backing-up',
      'applying',
      'verifying',
      'finished',
    ]);
  });
});

describe('WizardRun with a gateway that stops answering', () => {
  it('waits through a reboot during apply and then verifies', async () => {
    const gateway = createSimulatedGateway();
    const { run, state, events } = await startRun(firewallWizard, gateway.commander);
    // The set went through but its answer was lost to a reboot: make that a 408.
    interceptCommands(gateway.commander, async ({ name, forward }) => {
      if (name !== 'setFirewallConfiguration') return undefined;
      await forward();
      gateway.reboot();
      throw new ApiError(408, 2, 'Gateway did not answer', name);
    });
    const result = await run.apply({ ...state, enabled: false });
    expect(result.outcome).toBe('applied');
    const waiting = events.filter((event) => event.type === 'waiting');
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting[0]?.type === 'waiting' && waiting[0].notice.message).toMatch(
      /Waiting for the gateway to answer/,
    );
  });

  it('says the server cannot be reached, not the gateway, when the laptop loses the server', async () => {
    const gateway = createSimulatedGateway();
    let isServerAway = true;
    interceptCommands(gateway.commander, async ({ name }) => {
      if (isServerAway) {
        isServerAway = false;
        throw new NetworkError(name, 'connect ECONNREFUSED 127.0.0.1:1');
      }
      return undefined;
    });
    const { options } = runOptions(gateway.commander);
    const run = createWizardRun(firewallWizard, 'gw-1', options);
    const steps: string[] = [];
    run.on('event', (event: WizardEvent) => {
      if (event.type === 'step') steps.push(event.message);
    });
    await run.read();
    const waiting = steps.find((message) => message.includes('was not answered'));
    expect(waiting).toMatch(/^The server cannot be reached from this laptop/);
    expect(waiting).toContain('the gateway may be fine');
    expect(waiting).not.toMatch(/getFirewallConfiguration/);
  });

  it('explains a gateway that never answers instead of crashing', async () => {
    const gateway = createSimulatedGateway();
    gateway.faults.unansweredCommands = Number.POSITIVE_INFINITY;
    const { options } = runOptions(gateway.commander, {
      clock: gateway.clock,
      gatewayReturnTimeoutMs: 30 * COMMAND_STEP_MS,
    });
    const run = createWizardRun(firewallWizard, 'gw-1', options);
    await expect(driven(gateway.clock, run.read())).rejects.toThrow(
      /Gateway gw-1 did not answer for \d+ sec: it may be powered off, rebooting/,
    );
  });
});

describe('WizardRun cancelled during apply', () => {
  it('puts the previous values back and reports the run as cancelled', async () => {
    const gateway = createSimulatedGateway();
    const { run } = await startRun(cellularWizard, gateway.commander, { verifyTimeoutMs: 10_000 });
    run.on('event', (event) => {
      if (event.type === 'step' && event.step === 'verifying') run.cancel();
    });
    const result = await run.apply({ apns: [{ idx: 0, name: 'internet.wrong.example' }] });
    expect(result.outcome).toBe('cancelled');
    expect(result.message).toMatch(/^Cancelled during the change\. The previous settings were put back/);
    expect(gateway.state.configuration.apns.map((apn) => apn.name)).toEqual(['iot.sim.example']);
  });
});

describe('connectivity wizard', () => {
  it('verifies with a ping that receives packets', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(connectivityWizard, gateway.commander);
    const result = await run.apply({ ...state, pingTarget: '1.1.1.1' });
    expect(result.outcome).toBe('applied');
    expect(result.checks.map((check) => check.name)).toEqual(['Read back', 'Ping 1.1.1.1']);
    expect(gateway.calls.find((call) => call.name === 'ping')?.request).toEqual({
      destination: '1.1.1.1',
      packetsCount: 4,
    });
  });

  it('warns that the gateway reboots when both links fail', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(connectivityWizard, gateway.commander);
    expect(run.review({ ...state, preferredIdx: 1, fallbackIdx: 0 }).warnings[0]).toMatch(/restarts itself/);
  });

  it('rolls back when the ping receives nothing', async () => {
    const gateway = createSimulatedGateway();
    // A documentation address (TEST-NET-1) no link reaches: every ping to it goes unanswered.
    gateway.state.configuration.preferredPingIp = '192.0.2.1';
    const { run, state } = await startRun(connectivityWizard, gateway.commander, onGatewayTime(gateway));
    const result = await driven(gateway.clock, run.apply({ ...state, preferredIdx: 1, fallbackIdx: 0 }));
    expect(result.outcome).toBe('rolled-back');
    expect(result.message).toMatch(/Ping 192\.0\.2\.1: 0 of 4 packets received/);
    expect(gateway.state.configuration.preferredIdx).toBe(0);
  });

  it('refuses a ping target that is not an IP address', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(connectivityWizard, gateway.commander);
    expect(run.review({ ...state, pingTarget: 'not an address' }).problems).toEqual([
      'Ping target: not an address is not an IP address',
    ]);
  });
});

describe('cellular wizard', () => {
  it('explains in words that network selection needs newer gateway software (BSP)', async () => {
    const gateway = createSimulatedGateway();
    const { state } = await startRun(cellularWizard, gateway.commander);
    expect(state.networkSelection).toEqual({
      isAvailable: false,
      reason:
        'Listing cellular networks needs gateway software (BSP) 6.0.2 or later. ' +
        'This gateway runs BSP 5.1.3: upgrade its software first.',
    });
  });

  it('restores the previous APN when a wrong one fails verification', async () => {
    const gateway = createSimulatedGateway();
    const { run, state } = await startRun(cellularWizard, gateway.commander, onGatewayTime(gateway));
    const result = await driven(
      gateway.clock,
      run.apply({ apns: [{ idx: 0, name: 'internet.wrong.example' }] }),
    );
    expect(result.outcome).toBe('rolled-back');
    expect(result.message).toMatch(
      /^The new APN "internet\.wrong\.example" got no data call within [\d.]+ s; rolled back to "iot\.sim\.example" — data call connected again \(IP address 10\.64\.0\.2\)\.$/,
    );
    expect(gateway.state.configuration.apns.map((apn) => apn.name)).toEqual([state.apns[0]?.name]);
  });

  it('sends the bare index to delete an APN and verifies the call', async () => {
    const gateway = createSimulatedGateway();
    gateway.setApns([
      { name: 'iot.sim.example', type: 0, idxModem: 1, idx: 0 },
      { name: 'old.apn', type: 0, idxModem: 2, idx: 1 },
    ]);
    const { run } = await startRun(cellularWizard, gateway.commander);
    const result = await run.apply({ apns: [{ idx: 0, name: 'iot.sim.example' }] });
    expect(result.outcome).toBe('applied');
    expect(gateway.calls.find((call) => call.name === 'deleteWmApn')?.request).toBe(1);
    expect(result.checks[1]?.detail).toMatch(/CONNECTED with IP address 10\.64\.0\.2/);
  });

  it('numbers the APNs in the review as the form does: APN 1 for the first the gateway lists', async () => {
    const gateway = createSimulatedGateway();
    gateway.setApns([
      { name: 'iot.sim.example', type: 0, idxModem: 1, idx: 0 },
      { name: 'spare', type: 0, idxModem: 2, idx: 4 },
    ]);
    const { run } = await startRun(cellularWizard, gateway.commander);
    const review = run.review({ apns: [{ idx: 0, name: 'iot.wrong' }] });
    expect(review.changes.map((change) => [change.label, change.before, change.after])).toEqual([
      ['APN 1', 'iot.sim.example', 'iot.wrong'],
      ['APN 2', 'spare', null],
    ]);
  });

  it('puts a deleted APN back when the change fails verification', async () => {
    const gateway = createSimulatedGateway();
    gateway.setApns([
      { name: 'iot.sim.example', type: 0, idxModem: 1, idx: 0 },
      { name: 'spare', type: 0, idxModem: 2, idx: 1 },
    ]);
    const { run } = await startRun(cellularWizard, gateway.commander, onGatewayTime(gateway));
    const result = await driven(gateway.clock, run.apply({ apns: [{ idx: 1, name: 'spare' }] }));
    expect(result.outcome).toBe('rolled-back');
    expect(gateway.state.configuration.apns.map((apn) => apn.name).sort()).toEqual([
      'iot.sim.example',
      'spare',
    ]);
  });
});
