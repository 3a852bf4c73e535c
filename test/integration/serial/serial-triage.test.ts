import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { demoConsoleGateway, demoTerminals } from '../../../electron/app/demo-terminals';
import { MemoryStore } from '../../../electron/services/credentials';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import { runSerialTriage } from '../../../electron/services/serial/serial-triage';
import { mapTerminalError } from '../../../electron/services/terminals/terminal-errors';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import { RelayPasswords } from '../../../electron/services/terminals/terminal-secrets';
import { assessHealth as assessHealthData } from '../../../electron/shared/terminal/triage-health';
import { triageFindingWords } from '../../../electron/shared/terminal/triage-words';
import { healthInWords, outcomeInWords } from '../../helpers/triage-words';
import type { TriageProgressEvent } from '../../../electron/shared/terminal/triage-schemas';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { DEMO_CONSOLE_PATH, DemoConsoleBinding } from '../../../simulator/serial/demo-binding';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { startSimulatorSession } from '../commissioning/simulator-session';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readTerminal } from './terminal-reader';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

/** The health panel with its sentences written in English, as the screen shows them. */
const assessHealth = (readings: Parameters<typeof assessHealthData>[0]) =>
  healthInWords(assessHealthData(readings));

type GatewayKind = 'healthy' | 'ethernet-down' | 'wrong-apn';

/** A gateway of the demo tenant in the wanted state, as the simulator's own state decides it. */
function findGateway(simulator: RunningSimulator, kind: GatewayKind): string {
  const gateway = simulator.world.tenant.gateways.find((entity) => {
    if (entity.isOfflineFromStart) return false;
    const wrongApn = entity.hasEthernetLink && entity.index % 4 === 1;
    if (kind === 'ethernet-down') return !entity.hasEthernetLink;
    if (kind === 'wrong-apn') return wrongApn;
    return entity.hasEthernetLink && !wrongApn;
  });
  if (!gateway) throw new Error(`the demo tenant has no ${kind} gateway`);
  return gateway.id;
}

describe('serial triage against the simulator console on a pty', () => {
  let simulator: RunningSimulator;
  let directory: string;
  let serialPorts: SerialPorts;
  const attached: AttachedSerialConsole[] = [];
  /** What the screen of the console opened last shows. */
  let screen: ReturnType<typeof readTerminal>;

  beforeAll(async () => {
    simulator = await startSimulator({ gateways: 40, port: 0 });
  });
  afterAll(async () => {
    await simulator.close();
  });
  afterEach(async () => {
    await serialPorts.closeAll();
    await Promise.all(attached.splice(0).map((console) => console.close()));
    await rm(directory, { recursive: true, force: true });
  });

  /** Attaches the gateway's console as `--serial id=path` does and opens it as the app does. */
  async function openConsole(gatewayId: string): Promise<SerialSession> {
    directory = await mkdtemp(join(tmpdir(), 'serial-triage-'));
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
    const console = await attachSerialConsole({
      ...simulator.serialConsoleOf(gatewayId),
      linkPath: join(directory, 'console'),
    });
    attached.push(console);
    const session = await serialPorts.open({ path: console.linkPath, gateway: gatewayId });
    screen = readTerminal(session);
    return session;
  }

  function rootPassword(gatewayId: string): string {
    return simulator.serialConsoleOf(gatewayId).gateway.rootPassword;
  }

  it('logs in and finds no fault on a healthy gateway', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    const outcome = await runSerialTriage(session, { password: rootPassword(gatewayId) });
    expect(outcome).toMatchObject({ outcome: 'complete', usedPassword: true });
    const health = assessHealth(outcome.readings);
    expect(health.findings.filter((finding) => finding.status !== 'ok')).toEqual([]);
    expect(health.wan.status).toBe('ok');
    expect(health.modem.detail).toMatch(/^Modem connected on Rogers/);
    expect(health.packetForwarder.detail).toBe('Packet forwarder running (pkt_fwd).');
    expect(health.versions).toContainEqual({ name: 'BSP version', version: expect.any(String) });
    expect(outcome.commands.map((command) => command.command)).toEqual([
      'system_version',
      'uptime',
      'date +%s',
      'ip addr',
      'ip route',
      'cat /etc/resolv.conf',
      'logread | tail -n 200',
      'mmcli -m 0',
      'ps',
      'ping -c 3 -W 2 8.8.8.8',
    ]);
  });

  it('names the Ethernet link without carrier and the route over cellular', async () => {
    const gatewayId = findGateway(simulator, 'ethernet-down');
    const session = await openConsole(gatewayId);
    const outcome = await runSerialTriage(session, { password: rootPassword(gatewayId) });
    const health = assessHealth(outcome.readings);
    expect(health.findings[0]).toEqual({
      status: 'fault',
      text: 'Ethernet eth0 has no link (no carrier: check the cable and the switch port).',
    });
    expect(health.defaultRoutes).toEqual([{ device: 'ppp0', metric: 20 }]);
    expect(health.wan.status).toBe('ok');
    expect(health.logErrors.join('\n')).toContain('eth0 ping check to 8.8.8.8 failed: no carrier');
  });

  it('names the modem without data on a gateway with the wrong APN', async () => {
    const gatewayId = findGateway(simulator, 'wrong-apn');
    const session = await openConsole(gatewayId);
    const outcome = await runSerialTriage(session, { password: rootPassword(gatewayId) });
    const health = assessHealth(outcome.readings);
    expect(health.modem).toEqual({
      status: 'fault',
      detail:
        'Modem registered on Rogers (home) but has no data connection (state registered): check the APN.',
    });
    expect(health.interfaces.map((item) => item.name)).not.toContain('ppp0');
    expect(health.wan.status).toBe('ok');
  });

  it('shows and logs every command and answer without its end markers, never the password', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    await runSerialTriage(session, { password: rootPassword(gatewayId) });
    const logPath = session.logPath!;
    await serialPorts.closeAll();
    const log = await readFile(logPath, 'utf8');
    for (const shown of [screen.text, log]) {
      expect(shown).toMatch(/# mmcli -m 0\r\n/);
      expect(shown).toContain('3 packets transmitted, 3 packets received');
      expect(shown).not.toContain('__FK_');
      expect(shown).not.toContain(rootPassword(gatewayId));
    }
  });

  it('logs out at the end when it logged in itself, and says so', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    const outcome = await runSerialTriage(session, { password: rootPassword(gatewayId) });
    expect(outcomeInWords(outcome)).toMatchObject({
      outcome: 'complete',
      usedPassword: true,
      consoleLeft: 'Logged out again: diagnostics had logged in as root.',
    });
    await expect(runSerialTriage(session, {})).rejects.toMatchObject({ reason: 'password-required' });
  });

  it('runs at a shell prompt without logging in, and leaves the technician logged in', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    session.write('\r');
    await screen.waitForText('login: ');
    session.write('root\r');
    await screen.waitForText('Password: ');
    session.write(`${rootPassword(gatewayId)}\r`);
    await screen.waitForText(':~# ');
    const outcome = await runSerialTriage(session, {});
    expect(outcome).toMatchObject({ outcome: 'complete', usedPassword: false });
    expect(outcome).not.toHaveProperty('consoleLeft');
    expect(await runSerialTriage(session, {})).toMatchObject({ outcome: 'complete', usedPassword: false });
  });

  it('asks for a password at a login prompt when none is known, and says when it is refused', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    await expect(runSerialTriage(session, {})).rejects.toMatchObject({ reason: 'password-required' });
    await expect(runSerialTriage(session, { password: 'not-the-label' })).rejects.toMatchObject({
      reason: 'password-refused',
      message: 'The gateway refused the root password.',
    });
  });

  it('times a command out, says after how long, and goes on once the shell answers', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    const outcome = await runSerialTriage(session, {
      password: rootPassword(gatewayId),
      steps: [
        { key: 'log', command: 'logread -f', timeoutMs: 300 },
        { key: 'uptime', command: 'uptime' },
      ],
    });
    expect(outcome.outcome).toBe('complete');
    expect(outcome.commands[0]).toMatchObject({
      command: 'logread -f',
      outcome: 'timed-out',
      timeoutMs: 300,
    });
    expect(outcome.commands[1]).toMatchObject({ command: 'uptime', outcome: 'ok' });
  });

  it('stops with a clear message when the port vanishes mid-triage, keeping what was read', async () => {
    const gatewayId = findGateway(simulator, 'healthy');
    const session = await openConsole(gatewayId);
    const states: string[] = [];
    session.on('state', (state) => states.push(state));
    let commandsSeen = 0;
    session.on('received', (chunk) => {
      // Pull the cable once the triage is past its first commands.
      if (Buffer.from(chunk).includes('__FK_END_') && ++commandsSeen === 6) void attached[0]!.close();
    });
    const outcome = await runSerialTriage(session, { password: rootPassword(gatewayId) });
    expect(outcome.outcome).toBe('stopped');
    expect(outcomeInWords(outcome).problem).toMatch(
      /^The serial port went away during diagnostics \(Disconnected: /,
    );
    expect(outcome.readings.version?.exitCode).toBe(0);
    expect(states).toContain('reconnecting');
  });
});

describe('serial triage on a console that does not behave', () => {
  let pair: SocatPair;
  let gatewaySide: RawPortEnd;
  let directory: string;
  let serialPorts: SerialPorts;

  afterEach(async () => {
    await serialPorts.closeAll();
    await gatewaySide.close();
    await pair.cleanup();
    await rm(directory, { recursive: true, force: true });
  });

  async function openPair(): Promise<SerialSession> {
    pair = await startSocatPair();
    directory = await mkdtemp(join(tmpdir(), 'serial-triage-'));
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
    gatewaySide = await openRawEnd(pair.pathB);
    const session = await serialPorts.open({ path: pair.pathA, gateway: 'kona-garbled' });
    readTerminal(session);
    return session;
  }

  it('says no prompt came, with the time waited, when the console stays silent', async () => {
    const session = await openPair();
    const outcome = await runSerialTriage(session, { password: 'x', promptTimeoutMs: 300 });
    expect(outcomeInWords(outcome)).toMatchObject({
      outcome: 'stopped',
      problem:
        'No prompt within 0.3 s: the console printed nothing (is the gateway on and the cable in the console port?).',
      commands: [],
    });
    expect(session.state).toBe('open');
  });

  it('says the console prints no text when it answers with garbage, and the session keeps working', async () => {
    const session = await openPair();
    const triage = runSerialTriage(session, { password: 'x', promptTimeoutMs: 500 });
    await gatewaySide.waitForBytes(1);
    await gatewaySide.write(
      Buffer.from([0x00, 0xff, 0x13, 0xfe, 0x80, 0x7f, 0x01, 0xc3, 0x9b, 0x1b, 0x00, 0xfd]),
    );
    const outcome = await triage;
    expect(outcome.outcome).toBe('stopped');
    expect(outcomeInWords(outcome).problem).toMatch(
      /^No prompt within 0\.5 s: the console printed \d+ characters that are not text/,
    );
    expect(session.state).toBe('open');
    session.write('still here\r');
    await gatewaySide.waitForText('still here');
  });
});

describe('Collect diagnostics through the terminal manager', () => {
  let simulator: RunningSimulator;
  let directory: string;
  let serialPorts: SerialPorts;
  let attached: AttachedSerialConsole;
  let manager: TerminalManager;
  let keychain: Map<string, string>;
  let gatewayId: string;
  /** The `serial:triage-progress` events sent, oldest first. */
  let progress: TriageProgressEvent[];
  /** Plays the technician watching the wait. */
  let onProgress: ((event: TriageProgressEvent) => void) | undefined;

  beforeAll(async () => {
    simulator = await startSimulator({ gateways: 40, port: 0 });
  });
  afterAll(async () => {
    await simulator.close();
  });

  async function setUp(stored: Record<string, string> = {}) {
    gatewayId = findGateway(simulator, 'wrong-apn');
    directory = await mkdtemp(join(tmpdir(), 'serial-triage-manager-'));
    serialPorts = new SerialPorts({ logsDir: join(directory, 'logs') });
    attached = await attachSerialConsole({
      ...simulator.serialConsoleOf(gatewayId),
      linkPath: join(directory, 'console'),
      loginFailureDelayMs: 10,
    });
    keychain = new Map(Object.entries(stored));
    progress = [];
    onProgress = undefined;
    manager = new TerminalManager({
      // Plays the renderer: every output event is acknowledged, so the port keeps being read.
      events: {
        emit: (event, payload) => {
          if (event === 'serial:triage-progress') {
            progress.push(payload as TriageProgressEvent);
            onProgress?.(payload as TriageProgressEvent);
          }
          if (event !== 'terminal:data') return;
          const { id, data } = payload as { id: string; data: Uint8Array };
          queueMicrotask(() => manager.acknowledge(id, data.byteLength));
        },
      },
      ...serialOnlyTerminals(serialPorts),
      rootPassword: async (id) => keychain.get(id),
      rememberRootPassword: async (id, password) => void keychain.set(id, password),
    });
    return manager.openSerial({ path: attached.linkPath, gateway: gatewayId });
  }

  afterEach(async () => {
    await manager.closeAll();
    await attached.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('logs in with the stored root password and keeps the panel for the site report', async () => {
    const info = await setUp();
    keychain.set(gatewayId, simulator.serialConsoleOf(gatewayId).gateway.rootPassword);
    const result = await manager.collectDiagnostics(info.id);
    expect(result).toMatchObject({ terminalId: info.id, gatewayId, outcome: 'complete' });
    expect(triageFindingWords(result.health.findings[0]!)).toMatch(
      /^Modem registered on Rogers .*check the APN\.$/,
    );
    expect(manager.triages()).toEqual([result]);
  });

  it('answers ROOT_PASSWORD_REQUIRED without a stored password, and keeps a typed one that works', async () => {
    const info = await setUp();
    const refused = await manager.collectDiagnostics(info.id).catch((error: unknown) => error);
    expect(mapTerminalError(refused)).toMatchObject({
      code: 'UNAUTHENTICATED',
      details: { reason: 'ROOT_PASSWORD_REQUIRED' },
    });
    const password = simulator.serialConsoleOf(gatewayId).gateway.rootPassword;
    await manager.collectDiagnostics(info.id, { password, rememberPassword: true });
    expect(keychain.get(gatewayId)).toBe(password);
  });

  it('refuses a second run on the same console while one is running', async () => {
    const info = await setUp({});
    keychain.set(gatewayId, simulator.serialConsoleOf(gatewayId).gateway.rootPassword);
    const first = manager.collectDiagnostics(info.id);
    await expect(manager.collectDiagnostics(info.id)).rejects.toThrow(
      'Diagnostics are already running on this console.',
    );
    await expect(first).resolves.toMatchObject({ outcome: 'complete' });
  });

  it('says what it waits for and the time left, and stops after the current command on Cancel, logged out', async () => {
    const info = await setUp();
    keychain.set(gatewayId, simulator.serialConsoleOf(gatewayId).gateway.rootPassword);
    // Cancel is pressed while `uptime` runs.
    onProgress = (event) => {
      if (event.command === 'uptime') manager.cancelDiagnostics(info.id);
    };
    const result = await manager.collectDiagnostics(info.id);
    expect(progress[0]).toMatchObject({
      id: info.id,
      waitingFor: 'prompt',
      done: 0,
      total: 10,
    });
    expect(progress.find((event) => event.command === 'system_version')).toMatchObject({
      waitingFor: 'answer',
      done: 0,
    });
    const remaining = progress.map((event) => event.remainingMs);
    expect(remaining).toEqual([...remaining].sort((left, right) => right - left));
    expect(outcomeInWords(result)).toMatchObject({
      outcome: 'stopped',
      problem: 'Cancelled after `uptime` (2 of 10 commands run).',
      consoleLeft: 'Logged out again: diagnostics had logged in as root.',
    });
    expect(result.commands.map((command) => command.command)).toEqual(['system_version', 'uptime']);
    expect(progress.at(-1)).toMatchObject({
      waitingFor: 'logoutPrompt',
      isCancelling: true,
    });
    expect(manager.list()[0]?.state).toBe('open');
  });
});

describe('serial triage on the demo gateway console', () => {
  it('answers from the demo gateway’s state: an APN changed to a wrong one shows as the modem fault', async () => {
    const { simulator, session } = await startSimulatorSession({ gateways: 40 });
    const serialPorts = new SerialPorts({
      binding: { list: async () => [], open: async () => Promise.reject(new Error('no system ports here')) },
      demoBinding: demoTerminals(
        { relayPasswords: new RelayPasswords(new MemoryStore()) },
        simulator,
        null,
        (setup) => new DemoConsoleBinding(setup),
      ).demoBinding!,
    });
    try {
      const gateway = demoConsoleGateway(simulator.fixture);
      const { apns, workingIdx } = await session.command(gateway.id, 'getWmApns', {});
      const working = apns.find((apn) => apn.idx === workingIdx)!;
      await session.command(gateway.id, 'updateWmApn', { ...working, name: 'iot.wrong' });
      const console = await serialPorts.open({ path: DEMO_CONSOLE_PATH, logging: false });
      readTerminal(console);
      const outcome = await runSerialTriage(console, { password: gateway.rootPassword });
      expect(assessHealth(outcome.readings).modem).toEqual({
        status: 'fault',
        detail:
          'Modem registered on Rogers (home) but has no data connection (state registered): check the APN.',
      });
    } finally {
      await serialPorts.closeAll();
      await simulator.close();
    }
  });
});
