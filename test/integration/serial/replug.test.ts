import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { autoDetect } from '@serialport/bindings-cpp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import type { BindingInterface, PortInfo } from '../../../electron/shared/serial/binding-types';
import type {
  TerminalStateEvent,
  TerminalStateName,
} from '../../../electron/shared/terminal/terminal-schemas';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readLogWithoutLineTimes } from '../../helpers/session-log';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

/** The wall clock the manager stamps state events with. */
const WALL_CLOCK_MS = Date.UTC(2026, 10, 27, 10, 42, 3);
const ADAPTER = { serialNumber: 'FT4XK9Q2', vendorId: '0403', productId: '6001' };

/** What a gateway prints while it boots: numbered lines, so a lost or repeated byte shows. */
function bootOutput(lineCount: number): string {
  const lines: string[] = [];
  for (let line = 0; line < lineCount; line += 1) {
    lines.push(`[${String(line).padStart(6, '0')}] kona-roof boot: probing bus ${line % 17} … ok\r\n`);
  }
  return lines.join('');
}

/** A TerminalManager over `serialPorts` that records what it pushes to the windows. */
function createManager(serialPorts: SerialPorts) {
  const states: TerminalStateEvent[] = [];
  const stateWaiters: { state: TerminalStateName; resolve: (event: TerminalStateEvent) => void }[] = [];
  let screen = '';
  const textWaiters: { text: string; resolve: () => void }[] = [];
  const manager = new TerminalManager({
    events: {
      emit: (event, payload) => {
        if (event === 'terminal:state') {
          const stateEvent = payload as TerminalStateEvent;
          states.push(stateEvent);
          for (const waiter of stateWaiters.filter(({ state }) => state === stateEvent.state)) {
            stateWaiters.splice(stateWaiters.indexOf(waiter), 1);
            waiter.resolve(stateEvent);
          }
        }
        if (event === 'terminal:data') {
          screen += Buffer.from((payload as { data: Uint8Array }).data).toString('utf8');
          for (const waiter of textWaiters.filter(({ text }) => screen.includes(text))) {
            textWaiters.splice(textWaiters.indexOf(waiter), 1);
            waiter.resolve();
          }
        }
      },
    },
    ...serialOnlyTerminals(serialPorts),
    wallClock: () => WALL_CLOCK_MS,
  });
  return {
    manager,
    states,
    nextState: (state: TerminalStateName) =>
      new Promise<TerminalStateEvent>((resolve) => stateWaiters.push({ state, resolve })),
    screenShows: (text: string) =>
      screen.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve) => textWaiters.push({ text, resolve })),
  };
}

describe('a serial session whose adapter is replugged', () => {
  let directory: string;
  let socat: SocatPair;
  let otherSocat: SocatPair | undefined;
  let farEnd: RawPortEnd | undefined;
  let rig: ReturnType<typeof createManager> | undefined;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'serial-replug-'));
    socat = await startSocatPair();
  });

  afterEach(async () => {
    await rig?.manager.closeAll();
    rig = undefined;
    await farEnd?.close();
    farEnd = undefined;
    await otherSocat?.cleanup();
    otherSocat = undefined;
    await socat.cleanup();
    await rm(directory, { recursive: true, force: true });
  });

  /** Writes `text` from the far end at `path` and waits until the screen shows it. */
  async function sendFromGateway(path: string, text: string): Promise<void> {
    farEnd = await openRawEnd(path);
    await farEnd.write(text);
    await rig!.screenShows(text.slice(-60));
  }

  /** Ends the far end and the socat pair, as pulling the adapter does, and resolves with the state event. */
  async function unplug(pair: SocatPair): Promise<TerminalStateEvent> {
    const reconnecting = rig!.nextState('reconnecting');
    await farEnd?.close();
    farEnd = undefined;
    await pair.stop();
    return reconnecting;
  }

  it('reopens at the same link path as the same session, and logs all boot output sent after', async () => {
    rig = createManager(new SerialPorts({ logsDir: join(directory, 'logs') }));
    const opened = await rig.manager.openSerial({ path: socat.pathA, gateway: 'kona-roof' });
    await sendFromGateway(socat.pathB, 'kona-roof login: ');

    const disconnected = await unplug(socat);
    expect(disconnected).toMatchObject({ id: opened.id, at: WALL_CLOCK_MS });
    expect(disconnected.reason).toMatch(/^Disconnected: the adapter at .+ went away/);
    const reconnected = rig.nextState('open');
    await socat.restart();
    expect(await reconnected).toMatchObject({
      id: opened.id,
      reason: `Reconnected on ${socat.pathA}`,
      at: WALL_CLOCK_MS,
      session: { logPath: opened.logPath },
    });
    const boot = bootOutput(3_000);
    await sendFromGateway(socat.pathB, boot);

    await rig.manager.close(opened.id);
    const log = await readLogWithoutLineTimes(opened.logPath!, 'utf8');
    expect(log.startsWith('kona-roof login: ')).toBe(true);
    expect(log.endsWith(boot)).toBe(true);
    expect(rig.manager.logs().filter((item) => item.id === opened.id)).toHaveLength(1);
    expect(rig.states.map((event) => event.state)).toEqual(['reconnecting', 'open', 'closed']);
  });

  it('reopens on a new path when the port list shows the same serial number there', async () => {
    // A pty has no USB serial number: the list is the system's as the matcher would see it, the ports are real.
    // eslint-disable-next-line no-restricted-syntax -- bindings-cpp's autoDetect() is typed narrower than BindingInterface, which it implements (as serial-ports.ts uses it).
    const system = autoDetect() as unknown as BindingInterface;
    const listing = (path: string, serialNumber = ADAPTER.serialNumber): PortInfo => ({
      path,
      manufacturer: 'FTDI',
      pnpId: undefined,
      locationId: undefined,
      ...ADAPTER,
      serialNumber,
    });
    let listed = [listing(socat.pathA)];
    const binding: BindingInterface = { list: async () => listed, open: (options) => system.open(options) };
    rig = createManager(new SerialPorts({ binding, logsDir: join(directory, 'logs') }));
    const opened = await rig.manager.openSerial({ path: socat.pathA, gateway: 'kona-roof' });
    await sendFromGateway(socat.pathB, 'U-Boot 2020.01\r\n');

    listed = [];
    await unplug(socat);
    otherSocat = await startSocatPair();
    const reconnected = rig.nextState('open');
    // Another adapter of the same model sits where the first one was listed; only the serial number tells them apart.
    listed = [listing(socat.pathA, 'A10K1ZZ'), listing(otherSocat.pathA)];
    await socat.restart();
    expect(await reconnected).toMatchObject({
      id: opened.id,
      reason: `Reconnected on ${otherSocat.pathA}`,
      session: { path: otherSocat.pathA, logPath: opened.logPath },
    });
    const boot = bootOutput(1_000);
    await sendFromGateway(otherSocat.pathB, boot);

    await rig.manager.close(opened.id);
    const log = await readLogWithoutLineTimes(opened.logPath!, 'utf8');
    expect(log.startsWith('U-Boot 2020.01\r\n')).toBe(true);
    expect(log.endsWith(boot)).toBe(true);
  });
});
