import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { IpcError } from '../../../../electron/shared/ipc/result';
import { FlowController } from '../../../../electron/services/terminal-core';
import {
  HostKeyChangedError,
  RootPasswordRequiredError,
  SshSession,
} from '../../../../electron/services/ssh';
import {
  DATA_EVENT_INTERVAL_MS,
  DATA_EVENT_MAX_BYTES,
  mapTerminalError,
  MAX_TERMINALS,
  REPLAY_MAX_BYTES,
  tooManyTerminalsMessage,
  TerminalManager,
  type SerialTerminal,
  type SshTerminal,
  type TerminalManagerDependencies,
} from '../../../../electron/services/terminals';

type Pushed = { event: string; payload: Record<string, unknown> };

/** An SSH session that pauses its "channel" through a real FlowController, like SshSession does. */
class FakeSshSession extends EventEmitter implements SshTerminal {
  readonly kind = 'ssh' as const;
  readonly title = 'gw-1 (reverse SSH)';
  readonly gatewayId = 'gw-1';
  readonly reason = undefined;
  readonly closeWarning = undefined;
  readonly logPath = '/logs/gw-1_2026-01-01_10-00-00.log';
  readonly logProblem = undefined;
  readonly hostKeys = [{ keyId: 'gateway:gw-1', fingerprint: 'SHA256:abc', isNew: true }];
  state: 'connecting' | 'open' | 'closed' | 'failed' = 'open';
  bytesIn = 0;
  bytesOut = 0;
  written: string[] = [];
  isChannelPaused = false;
  closeCount = 0;
  readonly flow = new FlowController({
    pause: () => (this.isChannelPaused = true),
    resume: () => (this.isChannelPaused = false),
    highWatermark: 100_000,
    lowWatermark: 5_000,
  });
  constructor(readonly id: string) {
    super();
  }
  get unacknowledged(): number {
    return this.flow.unacknowledged;
  }
  produce(bytes: Uint8Array): void {
    this.bytesIn += bytes.length;
    this.flow.sent(bytes.length);
    this.emit('data', bytes);
  }
  write(data: string): void {
    this.written.push(data);
  }
  resize(): void {}
  appendLogNote(): void {}
  acknowledge(count: number): void {
    this.flow.acknowledged(count);
  }
  route: 'reverse' | 'direct' = 'reverse';
  readonly retries: Array<{ password?: string }> = [];
  async reconnect(retry: { password?: string } = {}): Promise<void> {
    this.retries.push(retry);
    this.state = 'open';
  }
  async close(reason = 'Closed by the user'): Promise<void> {
    this.closeCount += 1;
    this.state = 'closed';
    this.emit('state', 'closed', reason);
    this.emit('closed');
  }
}

/** A serial session as the manager sees it: its framing, and DTR/RTS with their setter. */
class FakeSerialSession extends EventEmitter implements SerialTerminal {
  readonly kind = 'serial' as const;
  readonly title = '/dev/ttyUSB0 · 9600 7E1';
  readonly options = {
    path: '/dev/ttyUSB0',
    baudRate: 9_600,
    dataBits: 7,
    parity: 'even',
    stopBits: 1,
    txNewline: 'cr',
  } as const;
  readonly path = '/dev/ttyUSB0';
  logPath: string | undefined = undefined;
  logProblem: string | undefined = undefined;
  readonly state = 'open';
  readonly bytesIn = 0;
  readonly bytesOut = 0;
  readonly unacknowledged = 0;
  signals = { dtr: false, rts: true };
  constructor(readonly id: string) {
    super();
  }
  isRawView = false;
  async setSignals(lines: { dtr?: boolean; rts?: boolean }): Promise<void> {
    this.signals = { ...this.signals, ...lines };
  }
  setRawView(isOn: boolean): void {
    this.isRawView = isOn;
  }
  async close(): Promise<void> {}
  // What the manager does not use of a serial session here: nothing to do.
  write(): void {}
  async writeBytes(): Promise<void> {}
  resize(): void {}
  acknowledge(): void {}
  setDisplayFilter(): void {}
  appendLogNote(): void {}
  async reopen(): Promise<void> {}
  async sendBreak(): Promise<void> {}
  async pasteLines(): Promise<void> {}
  async disconnect(): Promise<void> {}
  async sendFile(): Promise<void> {}
}

function setUp(overrides: Partial<TerminalManagerDependencies> = {}) {
  const pushed: Pushed[] = [];
  const scheduled: Array<() => void> = [];
  const stopped: string[] = [];
  const remembered: string[] = [];
  let next = 0;
  const opened: FakeSshSession[] = [];
  const requests: Array<Record<string, unknown>> = [];
  const manager = new TerminalManager({
    events: { emit: (event, payload) => pushed.push({ event, payload: payload as Record<string, unknown> }) },
    serialPorts: {
      list: async () => ({ ports: [] }),
      open: async () => Promise.reject(new Error('no ports')),
    },
    ssh: {
      openReverse: async (request) => {
        requests.push(request);
        const session = new FakeSshSession(`s${++next}`);
        // Like SshService: closing a reverse session sends stopReverseSsh.
        const close = session.close.bind(session);
        session.close = async (reason?: string) => {
          await close(reason);
          stopped.push(request.gatewayId);
        };
        opened.push(session);
        return session;
      },
      openDirect: async (request) => {
        requests.push(request);
        const session = new FakeSshSession(`s${++next}`);
        session.route = 'direct';
        opened.push(session);
        return session;
      },
      replaceHostKey: async () => undefined,
    },
    resolveRelay: async () => ({
      relay: { host: '127.0.0.1', port: 2222, username: 'relay', password: 'pw' },
    }),
    rememberRootPassword: async (gatewayId, password) => void remembered.push(`${gatewayId}=${password}`),
    schedule: (callback) => void scheduled.push(callback),
    ...overrides,
  });
  const runScheduled = () => scheduled.splice(0).forEach((callback) => callback());
  const dataOf = (id: string) =>
    Buffer.concat(
      pushed
        .filter((entry) => entry.event === 'terminal:data' && entry.payload.id === id)
        .map((entry) => entry.payload.data as Uint8Array),
    );
  return { manager, pushed, opened, stopped, remembered, requests, runScheduled, dataOf };
}

describe('TerminalManager', () => {
  it('names a gateway by its name and MAC in the tab, and by name and MAC digits in the log file', async () => {
    const { manager, requests } = setUp();
    await manager.openReverse({
      gatewayId: 'gw-1',
      gatewayName: 'acme-gw-0001',
      gatewayMac: '647fdafffe001cad',
      cols: 80,
      rows: 24,
    });
    expect(requests[0]).toMatchObject({
      title: 'acme-gw-0001 (reverse SSH) · 64:7F:DA:FF:FE:00:1C:AD',
      logName: 'acme-gw-0001_647FDAFFFE001CAD',
    });
  });

  it('pushes every output byte once, in order, as terminal:data events', async () => {
    const { manager, opened, runScheduled, dataOf } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const bytes = Uint8Array.from({ length: 3000 }, (_, index) => index % 256);
    opened[0]!.produce(bytes.subarray(0, 1000));
    opened[0]!.produce(bytes.subarray(1000));
    runScheduled();
    expect(dataOf(info.id).equals(Buffer.from(bytes))).toBe(true);
  });

  it("sends each data event with the session's byte totals as they stand when it goes out", async () => {
    const { manager, opened, pushed, runScheduled } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.bytesOut = 7;
    opened[0]!.produce(new Uint8Array(300));
    opened[0]!.produce(new Uint8Array(200));
    runScheduled();
    expect(pushed.find((entry) => entry.event === 'terminal:data')?.payload).toMatchObject({
      id: info.id,
      bytesIn: 500,
      bytesOut: 7,
    });
  });

  it('writes off what a reloaded page owed: a session paused for its acknowledgements resumes, and new output counts afresh', async () => {
    const { manager, opened, runScheduled } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    const [paused, idle] = [opened[0]!, opened[1]!];
    paused.produce(new Uint8Array(120_000));
    runScheduled();
    expect(paused.isChannelPaused).toBe(true);

    manager.writeOffAcknowledgements();

    expect(paused.isChannelPaused).toBe(false);
    expect([paused.unacknowledged, idle.unacknowledged]).toEqual([0, 0]);
    paused.produce(new Uint8Array(1_000));
    expect(paused.unacknowledged).toBe(1_000);
  });

  it('gives a page that starts over the output each session sent, the still pending part first sent as an event', async () => {
    let time = 0;
    // Every reading of the clock is a frame later: each scheduled flush finds its interval over.
    const { manager, opened, runScheduled, dataOf } = setUp({ now: () => (time += DATA_EVENT_INTERVAL_MS) });
    const first = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    opened[0]!.produce(Buffer.from('BusyBox v1.31.1\r\n'));
    runScheduled();
    opened[0]!.produce(Buffer.from('root@gw-1:~# '));

    const replays = manager.recentOutput();

    expect(replays).toEqual([{ id: first.id, data: expect.any(Uint8Array), bytesIn: 30, bytesOut: 0 }]);
    expect(Buffer.from(replays[0]!.data).toString()).toBe('BusyBox v1.31.1\r\nroot@gw-1:~# ');
    expect(dataOf(first.id).toString()).toBe('BusyBox v1.31.1\r\nroot@gw-1:~# ');
    opened[0]!.produce(Buffer.from('ls\r\n'));
    runScheduled();
    expect(dataOf(first.id).toString()).toBe('BusyBox v1.31.1\r\nroot@gw-1:~# ls\r\n');
  });

  it('replays at most REPLAY_MAX_BYTES of a long output, from the start of a line', async () => {
    const { manager, opened, runScheduled } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const line = (index: number) => `line ${String(index).padStart(6, '0')} ${'x'.repeat(50)}\r\n`;
    for (let index = 0; index < 20_000; index++) {
      opened[0]!.produce(Buffer.from(line(index)));
      opened[0]!.acknowledge(100);
      if (index % 500 === 0) runScheduled();
    }
    runScheduled();

    const text = Buffer.from(manager.recentOutput()[0]!.data).toString();

    expect(text.length).toBeLessThanOrEqual(REPLAY_MAX_BYTES);
    expect(text.length).toBeGreaterThan(REPLAY_MAX_BYTES - 100);
    expect(text.startsWith('line ')).toBe(true);
    expect(text.endsWith(line(19_999))).toBe(true);
  });

  it('coalesces the chunks of one tick into a single data event', async () => {
    const { manager, opened, pushed, runScheduled } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    for (let index = 0; index < 10; index += 1) opened[0]!.produce(new Uint8Array(100));
    runScheduled();
    expect(pushed.filter((entry) => entry.event === 'terminal:data')).toHaveLength(1);
  });

  it('fills data events up to DATA_EVENT_MAX_BYTES and never past it, splitting a chunk that does not fit', async () => {
    let now = 1_000;
    const { manager, opened, pushed, runScheduled, dataOf } = setUp({ now: () => now });
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const bytes = Uint8Array.from({ length: 500_000 }, (_, index) => (index * 7) % 256);
    for (let offset = 0; offset < bytes.length; offset += 50_000) {
      opened[0]!.produce(bytes.subarray(offset, offset + 50_000));
    }
    opened[0]!.produce(bytes.subarray(0, 3 * DATA_EVENT_MAX_BYTES));
    now += DATA_EVENT_INTERVAL_MS;
    runScheduled();
    const sizes = pushed
      .filter((entry) => entry.event === 'terminal:data')
      .map((entry) => (entry.payload.data as Uint8Array).byteLength);
    const total = bytes.length + 3 * DATA_EVENT_MAX_BYTES;
    expect(sizes.slice(0, -1).every((size) => size === DATA_EVENT_MAX_BYTES)).toBe(true);
    expect(sizes).toHaveLength(Math.ceil(total / DATA_EVENT_MAX_BYTES));
    expect(dataOf(info.id).equals(Buffer.concat([bytes, bytes.subarray(0, 3 * DATA_EVENT_MAX_BYTES)]))).toBe(
      true,
    );
  });

  it('sends output after a quiet spell on the next tick, and spaces events while output streams', async () => {
    let now = 1_000;
    const delays: number[] = [];
    const scheduledCallbacks: Array<() => void> = [];
    const { manager, opened, pushed } = setUp({
      now: () => now,
      schedule: (callback, delayMs) => {
        delays.push(delayMs);
        scheduledCallbacks.push(callback);
      },
    });
    const run = () => scheduledCallbacks.splice(0).forEach((callback) => callback());
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.produce(new Uint8Array(10));
    run();
    now += 1;
    opened[0]!.produce(new Uint8Array(10));
    now += DATA_EVENT_INTERVAL_MS - 1;
    run();
    now += 50;
    opened[0]!.produce(new Uint8Array(10));
    run();
    expect(delays).toEqual([0, DATA_EVENT_INTERVAL_MS - 1, 0]);
    expect(pushed.filter((entry) => entry.event === 'terminal:data')).toHaveLength(3);
  });

  it('keeps streaming events DATA_EVENT_INTERVAL_MS apart when a timer fires early or a full event went out first', async () => {
    let now = 1_000;
    const scheduledCallbacks: Array<() => void> = [];
    const { manager, opened, pushed } = setUp({
      now: () => now,
      schedule: (callback) => void scheduledCallbacks.push(callback),
    });
    const run = () => scheduledCallbacks.splice(0).forEach((callback) => callback());
    const events = () => pushed.filter((entry) => entry.event === 'terminal:data');
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.produce(new Uint8Array(10));
    run();
    // A timer is set for the rest of the interval; a full event goes out before it fires.
    now += 5;
    opened[0]!.produce(new Uint8Array(10));
    now += 5;
    opened[0]!.produce(new Uint8Array(DATA_EVENT_MAX_BYTES));
    expect(events()).toHaveLength(2);
    // The timer fires (on time for its own interval, early for the full event's): the remainder waits.
    now += 6;
    run();
    expect(events()).toHaveLength(2);
    now += DATA_EVENT_INTERVAL_MS - 6 - 1;
    run();
    expect(events()).toHaveLength(2);
    now += 1;
    run();
    expect(events()).toHaveLength(3);
    expect((events()[2]!.payload.data as Uint8Array).byteLength).toBe(10);
    expect(scheduledCallbacks).toHaveLength(0);
  });

  it('asks for per-line timestamps on reverse and direct SSH only when the user did', async () => {
    const { manager, requests } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24, timestamps: true });
    await manager.openDirect({
      host: '192.168.1.1',
      port: 22,
      username: 'root',
      password: 'pw',
      cols: 80,
      rows: 24,
      timestamps: true,
    });
    await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    expect(requests.map((request) => request.timestamps)).toEqual([true, true, undefined]);
  });

  it("reconnects an SSH session with the new password given, keeping it for a reverse session's gateway only", async () => {
    const { manager, opened, remembered } = setUp();
    const reverse = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const direct = await manager.openDirect({
      host: '192.168.1.1',
      port: 22,
      username: 'root',
      password: 'old',
      gatewayId: 'gw-2',
      cols: 80,
      rows: 24,
    });
    for (const session of opened) session.state = 'failed';
    await manager.reconnect(reverse.id, 'new-root-pw');
    await manager.reconnect(direct.id, 'new-user-pw');
    expect(opened.map((session) => session.retries)).toEqual([
      [{ password: 'new-root-pw' }],
      [{ password: 'new-user-pw' }],
    ]);
    expect(remembered).toEqual(['gw-1=new-root-pw']);
  });

  it('opens direct SSH to a named gateway with its id (for the key) and a title from its name', async () => {
    const { manager, requests } = setUp();
    const direct = { host: '192.168.1.1', port: 22, username: 'root', password: 'pw', cols: 80, rows: 24 };
    await manager.openDirect({ ...direct, gatewayId: 'gw-7', gatewayName: 'Roof 7' });
    await manager.openDirect(direct);
    expect(requests[0]).toMatchObject({ gatewayId: 'gw-7', title: 'Roof 7 (SSH)' });
    expect(requests[1]).not.toHaveProperty('gatewayId');
    expect(requests[1]).not.toHaveProperty('title');
  });

  it('passes acknowledgements to the session, which pauses above its high watermark and resumes under its low one', async () => {
    const { manager, opened, runScheduled } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const session = opened[0]!;
    for (let index = 0; index < 11; index += 1) session.produce(new Uint8Array(10_000));
    runScheduled();
    expect(session.isChannelPaused).toBe(true);
    manager.acknowledge(info.id, 100_000);
    expect(session.isChannelPaused).toBe(true);
    manager.acknowledge(info.id, 6_000);
    expect(session.isChannelPaused).toBe(false);
  });

  it('sends keystrokes to the session at once, even while its output is paused', async () => {
    const { manager, opened } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.produce(new Uint8Array(200_000));
    manager.write(info.id, 'uname -a\r');
    expect(opened[0]!.written).toEqual(['uname -a\r']);
  });

  it('pushes a state change after the output that came before it', async () => {
    const { manager, opened, pushed } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.produce(Buffer.from('bye\r\n'));
    opened[0]!.emit('state', 'failed', 'Lost the relay 127.0.0.1:2222: read ECONNRESET');
    expect(pushed.map((entry) => entry.event)).toEqual(['terminal:data', 'terminal:state']);
    expect(pushed[1]!.payload).toMatchObject({
      id: info.id,
      state: 'failed',
      reason: 'Lost the relay 127.0.0.1:2222: read ECONNRESET',
    });
  });

  it('reports the gateway host key trusted on first use when the session opens', async () => {
    const { manager, opened, pushed } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    opened[0]!.emit('state', 'open');
    expect(pushed.at(-1)!.payload.hostKey).toEqual({ fingerprint: 'SHA256:abc', isNew: true });
  });

  it('closing a reverse session sends stopReverseSsh and forgets the session', async () => {
    const { manager, stopped } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.close(info.id);
    expect(stopped).toEqual(['gw-1']);
    expect(manager.list()).toEqual([]);
  });

  it('closes every session on closeAll (quit)', async () => {
    const { manager, opened, stopped } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    await manager.closeAll();
    expect(opened.map((session) => session.closeCount)).toEqual([1, 1]);
    expect(stopped.sort()).toEqual(['gw-1', 'gw-2']);
  });

  it('titles a reverse session with the gateway name the user chose, else leaves the title to the service', async () => {
    const { manager, requests } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', gatewayName: 'acme-gw-0001', cols: 80, rows: 24 });
    await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    expect(requests.map((request) => request.title)).toEqual(['acme-gw-0001 (reverse SSH)', undefined]);
  });

  it('remembers a root password that opened a session', async () => {
    const { manager, remembered } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24, rootPassword: 'label-pw' });
    expect(remembered).toEqual(['gw-1=label-pw']);
  });

  it('lists an open SSH session with its log path and host keys', async () => {
    const { manager } = setUp();
    await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    expect(manager.list()).toEqual([
      expect.objectContaining({
        kind: 'ssh',
        gatewayId: 'gw-1',
        state: 'open',
        logPath: '/logs/gw-1_2026-01-01_10-00-00.log',
        hostKeys: [{ keyId: 'gateway:gw-1', fingerprint: 'SHA256:abc', isNew: true }],
      }),
    ]);
  });

  it('keeps the log of a closed session, with when it was opened and closed, for the site report', async () => {
    let clock = 1_000;
    const { manager } = setUp({ wallClock: () => clock });
    const first = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    clock = 2_000;
    await manager.close(first.id);
    clock = 3_000;
    const second = await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    expect(manager.list().map((session) => session.id)).toEqual([second.id]);
    expect(manager.logs()).toEqual([
      {
        id: first.id,
        title: 'gw-1 (reverse SSH)',
        path: '/logs/gw-1_2026-01-01_10-00-00.log',
        gatewayId: 'gw-1',
        openedAt: 1_000,
        closedAt: 2_000,
      },
      expect.objectContaining({ id: second.id, openedAt: 3_000 }),
    ]);
    expect(manager.logs()[1]).not.toHaveProperty('closedAt');
  });

  it('lists a serial session with its framing and DTR/RTS, and pushes their new state when one is toggled', async () => {
    const serial = new FakeSerialSession('s-serial');
    const { manager, pushed } = setUp({
      serialPorts: {
        list: async () => ({ ports: [] }),
        open: async () => serial,
      },
    });
    await manager.openSerial({ path: '/dev/ttyUSB0', baudRate: 9_600 });
    expect(manager.list()).toEqual([
      expect.objectContaining({
        kind: 'serial',
        path: '/dev/ttyUSB0',
        framing: '9600 7E1',
        signals: { dtr: false, rts: true },
      }),
    ]);
    expect(await manager.setSignals('s-serial', { dtr: true })).toEqual({ dtr: true, rts: true });
    expect(pushed.filter((entry) => entry.event === 'terminal:state').at(-1)?.payload).toMatchObject({
      id: 's-serial',
      state: 'open',
      session: { signals: { dtr: true, rts: true } },
    });
  });

  it('turns the raw (hex) view on for a serial session, and refuses it for SSH', async () => {
    const serial = new FakeSerialSession('s-serial');
    const { manager } = setUp({
      serialPorts: {
        list: async () => ({ ports: [] }),
        open: async () => serial,
      },
    });
    await manager.openSerial({ path: '/dev/ttyUSB0' });
    manager.setRawView('s-serial', true);
    expect(serial.isRawView).toBe(true);
    const ssh = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    expect(() => manager.setRawView(ssh.id, true)).toThrow('Only a serial console can do this.');
  });

  it('lists why a session is not logged, for the status bar', async () => {
    const serial = new FakeSerialSession('s-serial');
    serial.logProblem = 'Not logged: no log file could be made in /media/full (ENOSPC).';
    const { manager } = setUp({
      serialPorts: {
        list: async () => ({ ports: [] }),
        open: async () => serial,
      },
    });
    await manager.openSerial({ path: '/dev/ttyUSB0' });
    expect(manager.list()[0]).toMatchObject({
      logProblem: 'Not logged: no log file could be made in /media/full (ENOSPC).',
    });
    expect(manager.list()[0]).not.toHaveProperty('logPath');
  });

  it('keeps the new log of a serial session reopened after a disconnect, beside the first', async () => {
    const serial = new FakeSerialSession('s-serial');
    serial.logPath = '/logs/roof-1_10-00-00.log';
    const { manager } = setUp({
      serialPorts: {
        list: async () => ({ ports: [] }),
        open: async () => serial,
      },
    });
    await manager.openSerial({ path: '/dev/ttyUSB0' });
    serial.emit('state', 'failed', 'Disconnected: the port is free for other programs.');
    serial.logPath = '/logs/roof-1_10-05-00.log';
    serial.emit('state', 'open');
    expect(manager.logs().map((log) => log.path)).toEqual([
      '/logs/roof-1_10-00-00.log',
      '/logs/roof-1_10-05-00.log',
    ]);
  });

  it('answers a write to an unknown session with NOT_FOUND', () => {
    const { manager } = setUp();
    let caught: unknown;
    try {
      manager.write('missing', 'x');
    } catch (error) {
      caught = error;
    }
    expect(mapTerminalError(caught).code).toBe('NOT_FOUND');
  });
});

describe('TerminalManager at its most terminals', () => {
  it(`refuses the terminal past ${MAX_TERMINALS} opened at once, before asking the relay, saying why`, async () => {
    const { manager, requests } = setUp();
    const opens = Array.from({ length: MAX_TERMINALS + 1 }, (_, index) =>
      index % 2 === 0
        ? manager.openReverse({ gatewayId: `gw-${index}`, cols: 80, rows: 24 })
        : manager.openDirect({
            host: '127.0.0.1',
            port: 22,
            username: 'root',
            password: 'pw',
            cols: 80,
            rows: 24,
          }),
    );
    const outcomes = await Promise.allSettled(opens);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(MAX_TERMINALS);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(mapTerminalError(refused?.reason)).toMatchObject({
      code: 'INVALID_INPUT',
      message: tooManyTerminalsMessage(),
    });
    expect(requests).toHaveLength(MAX_TERMINALS);
    expect(manager.list()).toHaveLength(MAX_TERMINALS);
  });

  it('opens a terminal again once one of them is closed', async () => {
    const { manager } = setUp();
    const infos = [];
    for (let index = 0; index < MAX_TERMINALS; index += 1) {
      infos.push(await manager.openReverse({ gatewayId: `gw-${index}`, cols: 80, rows: 24 }));
    }
    await expect(manager.openReverse({ gatewayId: 'gw-x', cols: 80, rows: 24 })).rejects.toThrow(
      tooManyTerminalsMessage(),
    );
    await manager.close(infos[0]!.id);
    await expect(manager.openReverse({ gatewayId: 'gw-x', cols: 80, rows: 24 })).resolves.toMatchObject({
      kind: 'ssh',
    });
  });

  it('frees the place of an open that failed', async () => {
    const { manager } = setUp({
      serialPorts: {
        list: async () => ({ ports: [] }),
        open: async () => Promise.reject(new Error('no ports')),
      },
    });
    for (let index = 0; index <= MAX_TERMINALS; index += 1) {
      await expect(manager.openSerial({ path: '/dev/ttyUSB0', baudRate: 115_200 })).rejects.toThrow(
        'no ports',
      );
    }
    await expect(manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 })).resolves.toMatchObject({
      kind: 'ssh',
    });
  });
});

describe('TerminalManager and the accounts signed in', () => {
  const TECH = JSON.stringify(['demo', 'tech@acme.demo']);
  const OPS = JSON.stringify(['demo', 'ops@globex.demo']);

  it('closes only the reverse sessions at the end of a server session, each saying why', async () => {
    const { manager, stopped, pushed } = setUp();
    const reverse = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const direct = await manager.openDirect({
      host: '127.0.0.1',
      port: 22,
      username: 'root',
      password: 'pw',
      cols: 80,
      rows: 24,
    });
    await manager.closeReverse('Closed at sign-out.');
    expect(stopped).toEqual(['gw-1']);
    expect(manager.list().map((session) => session.id)).toEqual([direct.id]);
    expect(pushed).toContainEqual({
      event: 'terminal:state',
      payload: expect.objectContaining({ id: reverse.id, state: 'closed', reason: 'Closed at sign-out.' }),
    });
  });

  it('gives sessions opened before anyone signed in to the first account, and keeps them', async () => {
    const { manager } = setUp();
    const opened = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.useAccount(TECH);
    expect(manager.list().map((session) => session.id)).toEqual([opened.id]);
    expect(manager.logs().map((log) => log.id)).toEqual([opened.id]);
  });

  it("closes another account's sessions when a user signs in, and lists none of its logs", async () => {
    const { manager, opened } = setUp();
    await manager.useAccount(TECH);
    const tech = await manager.openDirect({
      host: '127.0.0.1',
      port: 22,
      username: 'root',
      password: 'pw',
      cols: 80,
      rows: 24,
    });
    await manager.useAccount(OPS);
    const ops = await manager.openReverse({ gatewayId: 'gw-2', cols: 80, rows: 24 });
    expect(opened[0]!.closeCount).toBe(1);
    expect(manager.list().map((session) => session.id)).toEqual([ops.id]);
    expect(manager.logs().map((log) => log.id)).toEqual([ops.id]);
    expect(manager.logs().map((log) => log.id)).not.toContain(tech.id);
  });

  it('keeps the sessions when the same account signs in again', async () => {
    const { manager, opened } = setUp();
    await manager.useAccount(TECH);
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    await manager.useAccount(TECH);
    expect(opened[0]!.closeCount).toBe(0);
    expect(manager.list().map((session) => session.id)).toEqual([info.id]);
  });
});

describe('TerminalManager when the gateway does not confirm its tunnel was stopped', () => {
  /** A real SshSession over a fake link whose stopReverseSsh (the close hook) answers 408; `exit()` ends its shell. */
  function sessionWithFailingStop() {
    let exit: () => void = () => undefined;
    const channel = Object.assign(new PassThrough(), { stderr: new PassThrough() });
    const session = new SshSession({
      kind: 'reverse',
      title: 'gw-1 (reverse SSH)',
      gatewayId: 'gw-1',
      cols: 80,
      rows: 24,
      connect: async () => ({
        // ssh2's ClientChannel overloads `on` returning ClientChannel, which no stream double can declare.
        // eslint-disable-next-line no-restricted-syntax -- a PassThrough as the shell channel
        channel: channel as unknown as ClientChannel,
        hostKeys: [],
        lost: new Promise((resolve) => {
          exit = () => resolve({ reason: 'The shell exited (code 0).', isRemoteExit: true });
        }),
        end: () => undefined,
      }),
      onClose: async () => Promise.reject(new Error('Gateway gw-1 did not answer stopReverseSsh (408)')),
    });
    return { session, exit: () => exit() };
  }

  function setUpWith(session: SshSession) {
    return setUp({
      ssh: {
        openReverse: async () => {
          await session.open();
          return session;
        },
        openDirect: async () => Promise.reject(new Error('not here')),
        replaceHostKey: async () => undefined,
      },
    });
  }

  it('answers the close with the warning', async () => {
    const { session } = sessionWithFailingStop();
    const { manager } = setUpWith(session);
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    expect(await manager.close(info.id)).toEqual({
      warning:
        'The gateway did not confirm the tunnel was stopped: Gateway gw-1 did not answer stopReverseSsh (408)',
    });
  });

  it('answers the close of a session that stopped its tunnel cleanly with no warning', async () => {
    const { manager } = setUp();
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    expect(await manager.close(info.id)).toEqual({});
  });

  it('pushes the closed state with the warning when the shell exited by itself', async () => {
    const { session, exit } = sessionWithFailingStop();
    const { manager, pushed } = setUpWith(session);
    const info = await manager.openReverse({ gatewayId: 'gw-1', cols: 80, rows: 24 });
    const closed = new Promise((resolve) => session.once('closed', resolve));
    exit();
    await closed;
    const states = pushed.filter((entry) => entry.event === 'terminal:state' && entry.payload.id === info.id);
    expect(states.at(-1)!.payload).toMatchObject({
      state: 'closed',
      reason:
        'The shell exited (code 0). The gateway did not confirm the tunnel was stopped: Gateway gw-1 did not answer stopReverseSsh (408)',
      session: { state: 'closed' },
    });
  });
});

describe('mapTerminalError', () => {
  it('turns a changed host key into a warning carrying both fingerprints', () => {
    const error = mapTerminalError(new HostKeyChangedError('gateway:gw-1', 'SHA256:old', 'SHA256:new'));
    expect(error).toBeInstanceOf(IpcError);
    expect(error.details).toEqual({
      reason: 'HOST_KEY_CHANGED',
      keyId: 'gateway:gw-1',
      expected: 'SHA256:old',
      actual: 'SHA256:new',
    });
  });

  it('asks for the root password when none is stored', () => {
    const error = mapTerminalError(new RootPasswordRequiredError('Enter the root password of gateway gw-1'));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.details).toEqual({ reason: 'ROOT_PASSWORD_REQUIRED' });
  });
});
