import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_CLOCK } from '../../../../electron/shared/clock';
import { describe, expect, it } from 'vitest';
import type { OpenOptions, SetOptions } from '../../../../electron/shared/serial/binding-types';
import { parseSerialOpenOptions } from '../../../../electron/services/serial/options';
import { SerialSession } from '../../../../electron/services/serial/serial-session';
import { disconnectedByUser } from '../../../../electron/services/serial/serial-port-words';
import { ManualClock } from '../../../helpers/manual-clock';
import { createPortInfo, FakeBinding } from './fake-binding';
import { readLogWithoutLineTimes } from '../../../helpers/session-log';

const ADAPTER = { path: '/dev/ttyUSB0', serialNumber: 'A10K1', vendorId: '0403', productId: '6001' };

function createBinding(): FakeBinding {
  const binding = new FakeBinding();
  binding.ports = [createPortInfo(ADAPTER)];
  return binding;
}

function createSession(binding: FakeBinding, options: Record<string, unknown> = {}): SerialSession {
  return new SerialSession(parseSerialOpenOptions({ path: ADAPTER.path, ...options }), ADAPTER, {
    binding,
    clock: { ...SYSTEM_CLOCK, now: () => new Date(2026, 10, 22, 10, 0, 0).getTime() },
    reconnect: { pollIntervalMs: 1, giveUpAfterMs: 60_000 },
    flow: { highWatermark: 1_000, lowWatermark: 500 },
  });
}

/** What the terminal screen was handed, and a way to wait until it has been handed so many bytes. */
function collectScreen(session: SerialSession) {
  const chunks: Buffer[] = [];
  const waiters: { byteCount: number; resolve: () => void }[] = [];
  const byteCount = () => chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  session.on('data', (chunk) => {
    chunks.push(Buffer.from(chunk));
    for (const waiter of [...waiters]) {
      if (byteCount() < waiter.byteCount) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  return {
    get text() {
      return Buffer.concat(chunks).toString('latin1');
    },
    hasReceived(count: number): Promise<void> {
      if (byteCount() >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ byteCount: count, resolve }));
    },
  };
}

function recordStates(session: SerialSession): string[] {
  const states: string[] = [];
  session.on('state', (state, reason) => states.push(reason ? `${state}: ${reason}` : state));
  return states;
}

/** Holds a call until the test releases it; `reached` settles once a call is being held. */
function createHold() {
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    reached,
    release,
    async wait(): Promise<void> {
      reach();
      await released;
    },
  };
}

type Hold = ReturnType<typeof createHold>;

/** Each point where the reconnect loop waits for the system, and how to hold it there. */
const RECONNECT_STEPS: {
  step: string;
  options: Record<string, unknown>;
  holdAt(binding: FakeBinding, hold: Hold): void;
}[] = [
  {
    step: 'listing the ports',
    options: {},
    holdAt(binding, hold) {
      const list = binding.list.bind(binding);
      binding.list = async () => {
        await hold.wait();
        return list();
      };
    },
  },
  {
    step: 'opening the port',
    options: {},
    holdAt(binding, hold) {
      const open = binding.open.bind(binding);
      binding.open = async (options: OpenOptions) => {
        await hold.wait();
        return open(options);
      };
    },
  },
  {
    step: 'restoring DTR and RTS on the reopened port',
    options: { dtr: false },
    holdAt(binding, hold) {
      const open = binding.open.bind(binding);
      binding.open = async (options: OpenOptions) => {
        const port = await open(options);
        const set = port.set.bind(port);
        port.set = async (signals: SetOptions) => {
          await hold.wait();
          return set(signals);
        };
        return port;
      };
    },
  },
];

/**
 * Starts a session, unplugs its adapter and, with the reconnect held at `step`, runs `stop` (Disconnect or Close)
 * before letting it go on; resolves with the session and the states it went through since it opened.
 */
async function stopWhileReconnecting(
  step: (typeof RECONNECT_STEPS)[number],
  stop: (session: SerialSession) => Promise<void>,
): Promise<{ binding: FakeBinding; session: SerialSession; states: string[] }> {
  const binding = createBinding();
  const session = createSession(binding, step.options);
  await session.start();
  const states = recordStates(session);
  const hold = createHold();
  step.holdAt(binding, hold);
  binding.lastPort.unplug();
  await hold.reached;
  const stopping = stop(session);
  hold.release();
  await stopping;
  return { binding, session, states };
}

/** What a session says when its adapter is pulled out while it reconnects by itself. */
const UNPLUGGED =
  'reconnecting: Disconnected: the adapter at /dev/ttyUSB0 went away (unplugged, or the gateway lost power; EIO: i/o error, read)';

describe('SerialSession', () => {
  describe.each(RECONNECT_STEPS)('when the user disconnects while reconnecting is $step', (step) => {
    it('stays disconnected with the port free', async () => {
      const { binding, session, states } = await stopWhileReconnecting(step, (stopped) =>
        stopped.disconnect(),
      );
      expect(session.state).toBe('failed');
      expect(states).toEqual([UNPLUGGED, `failed: ${disconnectedByUser()}`]);
      expect(binding.opened.filter((port) => port.isOpen)).toEqual([]);
    });
  });

  it('stays closed with the port free when closed while a reopened port gets its DTR and RTS back', async () => {
    const { binding, session, states } = await stopWhileReconnecting(RECONNECT_STEPS[2]!, (stopped) =>
      stopped.close(),
    );
    expect(session.state).toBe('closed');
    expect(states).toEqual([UNPLUGGED, 'closed']);
    expect(binding.opened.filter((port) => port.isOpen)).toEqual([]);
  });

  it('stays closed with the port free when closed while first opening the port', async () => {
    const binding = createBinding();
    const session = createSession(binding);
    const states = recordStates(session);
    const hold = createHold();
    RECONNECT_STEPS[1]!.holdAt(binding, hold);
    const starting = session.start();
    await hold.reached;
    const closing = session.close();
    hold.release();
    await expect(starting).rejects.toThrow('The serial session was closed before its port opened');
    await closing;
    expect(session.state).toBe('closed');
    expect(states).toEqual(['closed']);
    expect(binding.opened.filter((port) => port.isOpen)).toEqual([]);
  });

  it('reads the new port after Disconnect and Reconnect although the old screen never acknowledged its output', async () => {
    const binding = createBinding();
    const session = createSession(binding);
    const screen = collectScreen(session);
    await session.start();
    binding.lastPort.receive(Buffer.alloc(1_200, 0x41));
    await screen.hasReceived(1_000);
    expect(session.isPaused).toBe(true);
    await session.disconnect();
    await session.reopen();
    expect(binding.lastPort.hasPendingRead).toBe(true);
    binding.lastPort.receive('login: ');
    await screen.hasReceived(1_007);
    expect(screen.text).toBe(`${'A'.repeat(1_000)}login: `);
    expect(session.isPaused).toBe(false);
    expect(session.unacknowledged).toBe(7);
  });

  it('hands over output still waiting from before a disconnect first when reconnected, and writes it off', async () => {
    const binding = createBinding();
    const session = createSession(binding, { localEcho: true });
    const screen = collectScreen(session);
    await session.start();
    binding.lastPort.receive(Buffer.alloc(1_000, 0x41));
    await screen.hasReceived(1_000);
    session.write('typed');
    await session.disconnect();
    await session.reopen();
    expect(binding.lastPort.hasPendingRead).toBe(true);
    binding.lastPort.receive('login: ');
    await screen.hasReceived(1_012);
    expect(screen.text).toBe(`${'A'.repeat(1_000)}typedlogin: `);
    expect(session.unacknowledged).toBe(7);
  });

  it('resumes reading a port paused at the high watermark once everything owed is acknowledged', async () => {
    const binding = createBinding();
    const session = createSession(binding);
    const screen = collectScreen(session);
    await session.start();
    const port = binding.lastPort;
    port.receive(Buffer.alloc(1_200, 0x41));
    await screen.hasReceived(1_000);
    expect(session.isPaused).toBe(true);
    expect(port.hasPendingRead).toBe(false);
    session.acknowledge(session.unacknowledged);
    await screen.hasReceived(1_200);
    port.receive('later');
    await screen.hasReceived(1_205);
    expect(screen.text).toBe(`${'A'.repeat(1_200)}later`);
    expect(session.isPaused).toBe(false);
  });
});

describe('SerialSession local echo into a password prompt', () => {
  async function openLoggedSession() {
    const logsDir = await mkdtemp(join(tmpdir(), 'serial-password-'));
    const binding = createBinding();
    const session = new SerialSession(
      parseSerialOpenOptions({ path: ADAPTER.path, localEcho: true, logging: true }),
      ADAPTER,
      { binding, logsDir, clock: { ...SYSTEM_CLOCK, now: () => new Date(2026, 10, 22, 10, 0, 0).getTime() } },
    );
    const screen = collectScreen(session);
    await session.start();
    const cleanUp = () => rm(logsDir, { recursive: true, force: true });
    return { binding, session, screen, cleanUp };
  }

  it('shows dots and logs [password typed] for what is typed after "Password:", until Enter', async () => {
    const { binding, session, screen, cleanUp } = await openLoggedSession();
    try {
      const expected = `login: root\r\nPassword: ${'•'.repeat(6)}\r\n\r\nroot@gw:~# ls\r\n`;
      binding.lastPort.receive('login: root\r\nPassword: ');
      await screen.hasReceived('login: root\r\nPassword: '.length);
      for (const key of ['s', '3', 'c', 'r', 'e', 't']) session.write(key);
      session.write('\r');
      binding.lastPort.receive('\r\nroot@gw:~# ');
      await screen.hasReceived(Buffer.byteLength(expected) - 4);
      session.write('ls\r');
      await screen.hasReceived(Buffer.byteLength(expected));
      // An empty writeBytes settles once every earlier write has reached the port.
      await session.writeBytes(new Uint8Array(0));
      const logPath = session.logPath!;
      await session.close();
      expect(binding.lastPort.writtenText).toBe('s3cret\rls\r');
      expect(Buffer.from(screen.text, 'latin1').toString('utf8')).toBe(expected);
      expect(await readFile(logPath, 'utf8')).toBe(
        '[10:00:00.000] login: root\r\n[10:00:00.000] Password: [password typed]\r\n\r\n[10:00:00.000] root@gw:~# ls\r\n',
      );
    } finally {
      await cleanUp();
    }
  });

  it('echoes as typed once the far end has moved past the prompt', async () => {
    const { binding, session, screen, cleanUp } = await openLoggedSession();
    try {
      const shown = "root@gw's password:  \r\nPermission denied\r\n$ ";
      binding.lastPort.receive(shown);
      await screen.hasReceived(shown.length);
      session.write('id');
      await screen.hasReceived(shown.length + 2);
      await session.close();
      expect(screen.text.endsWith('$ id')).toBe(true);
    } finally {
      await cleanUp();
    }
  });

  it.each([
    '[sudo] password for root: ',
    'PASSWORD:',
    'Password:\x1b[0m ',
    "Enter passphrase for key '/root/.ssh/id_rsa': ",
    'Enter PIN: ',
    'Enter PIN for "SIM 1":',
    '\x1b[1mOld Password\x1b[22m:\x1b[K',
    'Passcode: ',
  ])('logs [password typed] instead of what is typed after %j', async (prompt) => {
    const { binding, session, screen, cleanUp } = await openLoggedSession();
    try {
      const shown = `gw login: root\r\n${prompt}`;
      binding.lastPort.receive(shown);
      await screen.hasReceived(Buffer.byteLength(shown, 'latin1'));
      session.write('Hunter2-secret\r');
      await session.writeBytes(new Uint8Array(0));
      const logPath = session.logPath!;
      await session.close();
      expect(await readLogWithoutLineTimes(logPath)).toBe(`${shown}[password typed]\r\n`);
      expect(screen.text).not.toContain('Hunter2');
    } finally {
      await cleanUp();
    }
  });

  it.each(['Password changed.\r\n$ ', 'Pinging 10.0.0.1: ', 'spin: ', 'Last login: Mon'])(
    'echoes as typed after %j, which asks for no secret',
    async (shown) => {
      const { binding, session, screen, cleanUp } = await openLoggedSession();
      try {
        binding.lastPort.receive(shown);
        await screen.hasReceived(shown.length);
        session.write('id');
        await screen.hasReceived(shown.length + 2);
        await session.close();
        expect(screen.text.endsWith('id')).toBe(true);
      } finally {
        await cleanUp();
      }
    },
  );
});

describe('SerialSession reconnecting by itself on the app clock', () => {
  /** Lets the promises a fired timer started run to their next wait. */
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

  async function openOnManualClock() {
    const logsDir = await mkdtemp(join(tmpdir(), 'serial-replug-'));
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0));
    const binding = createBinding();
    const session = new SerialSession(
      parseSerialOpenOptions({ path: ADAPTER.path, logging: true, gateway: 'kona-roof' }),
      ADAPTER,
      { binding, logsDir, clock },
    );
    const screen = collectScreen(session);
    await session.start();
    const states = recordStates(session);
    const cleanUp = async () => {
      await session.close();
      await rm(logsDir, { recursive: true, force: true });
    };
    return { clock, binding, session, screen, states, cleanUp };
  }

  /** Moves the clock on by `milliseconds` in steps of `stepMs`, letting the session act after each. */
  async function advance(clock: ManualClock, milliseconds: number, stepMs: number) {
    for (let elapsed = 0; elapsed < milliseconds; elapsed += stepMs) {
      clock.advance(stepMs);
      await settle();
    }
  }

  it('reopens at its first look after the adapter is back, within 250 ms, keeping its log', async () => {
    const { clock, binding, session, screen, states, cleanUp } = await openOnManualClock();
    try {
      binding.lastPort.receive('U-Boot 2020.01\r\n');
      await screen.hasReceived(16);
      const logPath = session.logPath;
      binding.ports = [];
      binding.lastPort.unplug();
      await settle();
      await advance(clock, 1_000, 50);
      expect(session.state).toBe('reconnecting');
      binding.ports = [createPortInfo(ADAPTER)];
      await advance(clock, 250, 50);
      expect(states).toEqual([UNPLUGGED, `open: Reconnected on ${ADAPTER.path}`]);
      binding.lastPort.receive('Starting kernel ...\r\n');
      await screen.hasReceived(16 + 21);
      expect(session.logPath).toBe(logPath);
      await session.close();
      expect(await readFile(logPath!, 'latin1')).toBe(
        '[10:00:00.000] U-Boot 2020.01\r\n[10:00:01.250] Starting kernel ...\r\n',
      );
    } finally {
      await cleanUp();
    }
  });

  it('keeps looking for 10 minutes, then fails saying it gave up', async () => {
    const { clock, binding, session, states, cleanUp } = await openOnManualClock();
    try {
      binding.ports = [];
      binding.lastPort.unplug();
      await settle();
      await advance(clock, 10 * 60_000 - 250, 250);
      expect(session.state).toBe('reconnecting');
      await advance(clock, 250, 250);
      expect(states.at(-1)).toMatch(
        /^failed: Gave up reconnecting: Could not open \/dev\/ttyUSB0: no such port/,
      );
    } finally {
      await cleanUp();
    }
  });
});
