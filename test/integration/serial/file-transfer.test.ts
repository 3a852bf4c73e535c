import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autoDetect } from '@serialport/bindings-cpp';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import type { SerialSendFileProgress } from '../../../electron/shared/terminal/terminal-schemas';
import { FileReceiver } from '../../../simulator/serial/file-receiver';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import {
  CAN,
  CRC_REQUEST,
  NAK,
  SUB,
  type FileTransferProgress,
} from '../../../electron/services/serial/ymodem';
import { DemoConsoleBinding } from '../../../simulator/serial/demo-binding';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readTerminal } from './terminal-reader';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

const GATEWAY = {
  gatewayId: '647fdafffe00c0de',
  hostname: 'kona-roof',
  bspVersion: '7.1.2',
  rootPassword: 'Label-Pass-42',
};
const PROMPT = 'root@kona-roof:~# ';

/** A firmware-like file: random bytes, not ending in XMODEM's padding byte (XMODEM carries no size). */
function createFile(size: number): Buffer {
  const file = randomBytes(size);
  if (file[size - 1] === SUB) file[size - 1] = 0;
  return file;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('sending a file to the simulated gateway over a pseudo-terminal', () => {
  let directory: string;
  let attached: AttachedSerialConsole;
  let serialPorts: SerialPorts;
  let session: SerialSession;
  let terminal: ReturnType<typeof readTerminal>;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'serial-file-'));
    attached = await attachSerialConsole({ gateway: GATEWAY, linkPath: join(directory, 'console') });
    serialPorts = new SerialPorts({});
    session = await serialPorts.open({ path: attached.linkPath, logging: false });
    terminal = readTerminal(session);
    session.write('\r');
    await terminal.waitForText('kona-roof login: ');
    session.write('root\r');
    await terminal.waitForText('Password: ');
    session.write(`${GATEWAY.rootPassword}\r`);
    await terminal.waitForText(PROMPT);
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await attached.close();
    await rm(directory, { recursive: true, force: true });
  });

  async function startReceiver(command: string): Promise<number> {
    const from = terminal.byteCount;
    session.write(`${command}\r`);
    await terminal.waitForText('Ctrl-X Ctrl-X cancels\r\n', from);
    return terminal.byteCount;
  }

  it('delivers a file by YMODEM to rb, which reports the same SHA-256', async () => {
    const file = createFile(300_000);
    const from = await startReceiver('rb');
    const progress: FileTransferProgress[] = [];
    await session.sendFile(
      { protocol: 'ymodem', name: 'fw-7.1.3.bin', data: file },
      { onProgress: (report) => progress.push(report) },
    );
    await terminal.waitForText(`rb: received fw-7.1.3.bin: 300000 bytes, sha256 ${sha256(file)}\r\n`, from);
    expect(progress.at(-1)).toMatchObject({ bytesSent: 300_000, totalBytes: 300_000, retries: 0 });
    expect(progress.at(-1)!.bytesPerSecond).toBeGreaterThan(0);
  });

  it('delivers a file by XMODEM-1K to rx, which reports the same SHA-256', async () => {
    const file = createFile(100_001);
    const from = await startReceiver('rx fw.bin');
    await session.sendFile({ protocol: 'xmodem-1k', name: 'fw.bin', data: file });
    await terminal.waitForText(`rx: received fw.bin: 100001 bytes, sha256 ${sha256(file)}\r\n`, from);
  });

  it('ignores keystrokes while a file is being sent', async () => {
    const file = createFile(200_000);
    const from = await startReceiver('rb');
    const sending = session.sendFile({ protocol: 'ymodem', name: 'fw.bin', data: file });
    session.write('garbage typed meanwhile\r');
    await sending;
    await terminal.waitForText(`rb: received fw.bin: 200000 bytes, sha256 ${sha256(file)}\r\n`, from);
  });
});

describe('sending a file to a receiver that misbehaves', () => {
  let socat: SocatPair;
  let farEnd: RawPortEnd;
  let serialPorts: SerialPorts;
  let session: SerialSession;

  beforeEach(async () => {
    socat = await startSocatPair();
    serialPorts = new SerialPorts({});
    session = await serialPorts.open({ path: socat.pathA, logging: false });
    // As in the app, a screen takes the session's output (the port is read only once something does).
    readTerminal(session);
    farEnd = await openRawEnd(socat.pathB);
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await farEnd.close();
    await socat.cleanup();
  });

  it('sends a block again on each NAK and stops when the receiver cancels', async () => {
    // Caught at once: the send fails while the far end is still writing its CANs.
    const failure = session.sendFile({ protocol: 'xmodem-1k', name: 'fw.bin', data: createFile(4_096) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await farEnd.write(new Uint8Array([CRC_REQUEST]));
    const frameSize = 1_029;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await farEnd.waitForBytes(frameSize * attempt);
      await farEnd.write(new Uint8Array(attempt < 3 ? [NAK] : [CAN, CAN]));
    }
    expect(await failure).toMatchObject({
      reason: 'cancelled-by-receiver',
      message: 'The receiver cancelled the transfer (CAN CAN)',
    });
    const frames = farEnd.received;
    expect(frames.length).toBe(frameSize * 3);
    expect(frames.subarray(frameSize, frameSize * 2).equals(frames.subarray(0, frameSize))).toBe(true);
  });

  it('says plainly when nothing on the other side asks for the file', async () => {
    await expect(
      session.sendFile({ protocol: 'ymodem', name: 'fw.bin', data: createFile(10) }, { startTimeoutMs: 300 }),
    ).rejects.toThrow('No answer from the other side: it did not ask for the file within 0.3 s');
  });

  it('sends CANs to the receiver when the user cancels', async () => {
    const controller = new AbortController();
    const sending = session.sendFile(
      { protocol: 'ymodem', name: 'fw.bin', data: createFile(4_096) },
      { signal: controller.signal },
    );
    await farEnd.write(new Uint8Array([CRC_REQUEST]));
    await farEnd.waitForBytes(133);
    controller.abort();
    await expect(sending).rejects.toMatchObject({ reason: 'cancelled' });
    await farEnd.waitForBytes(133 + 2);
    expect([...farEnd.received.subarray(133, 135)]).toEqual([CAN, CAN]);
  });
});

describe('serial:send-file through the terminal manager', () => {
  let socat: SocatPair;
  let serialPorts: SerialPorts;
  let manager: TerminalManager;
  const progress: SerialSendFileProgress[] = [];

  beforeEach(async () => {
    socat = await startSocatPair();
    serialPorts = new SerialPorts({});
    progress.length = 0;
    manager = new TerminalManager({
      events: {
        emit: (event, payload) => {
          if (event === 'serial:send-file-progress') progress.push(payload as SerialSendFileProgress);
        },
      },
      ...serialOnlyTerminals(serialPorts),
    });
  });

  afterEach(async () => {
    await manager.closeAll();
    await socat.cleanup();
  });

  /** The simulator's receiver on the far end of the pty pair. */
  async function startFarReceiver() {
    const port = await autoDetect().open({ path: socat.pathB, baudRate: 115_200 });
    let writes = Promise.resolve();
    const receiver = new FileReceiver({
      protocol: 'ymodem',
      write: (bytes) => (writes = writes.then(() => port.write(Buffer.from(bytes)))),
    });
    const reading = (async () => {
      const buffer = Buffer.alloc(65_536);
      while (port.isOpen) {
        const read = await port.read(buffer, 0, buffer.length).catch(() => undefined);
        if (!read) return;
        receiver.input(buffer.subarray(0, read.bytesRead));
      }
    })();
    const close = async () => {
      receiver.stop();
      if (port.isOpen) await port.close().catch(() => {});
      await reading;
    };
    return { receiver, close };
  }

  it('pushes progress after each block and answers with the size sent', async () => {
    const opened = await manager.openSerial({ path: socat.pathA, logging: false });
    const file = createFile(5 * 1024 + 17);
    const sending = manager.sendFile(opened.id, { protocol: 'ymodem', name: 'fw.bin', data: file });
    const far = await startFarReceiver();
    try {
      await expect(sending).resolves.toMatchObject({ bytes: file.length });
      expect((await far.receiver.done).sha256).toBe(sha256(file));
      expect(progress.map((report) => report.bytesSent)).toEqual([1024, 2048, 3072, 4096, 5120, 5137]);
      expect(progress.every((report) => report.id === opened.id && report.totalBytes === file.length)).toBe(
        true,
      );
    } finally {
      await far.close();
    }
  });

  it('refuses a second file on a console that is sending one, and cancels on request', async () => {
    const opened = await manager.openSerial({ path: socat.pathA, logging: false });
    const sending = manager.sendFile(opened.id, { protocol: 'ymodem', name: 'a.bin', data: createFile(10) });
    await expect(
      manager.sendFile(opened.id, { protocol: 'ymodem', name: 'b.bin', data: createFile(10) }),
    ).rejects.toThrow('A file is already being sent on this console.');
    manager.cancelSendFile(opened.id);
    await expect(sending).rejects.toThrow('The transfer was cancelled');
  });
});

describe('the demo gateway console', () => {
  it('receives a file by rb and reports the same SHA-256', async () => {
    const serialPorts = new SerialPorts({
      binding: { list: async () => [], open: async () => Promise.reject(new Error('no system ports here')) },
      demoBinding: new DemoConsoleBinding({ gateway: GATEWAY, loginFailureDelayMs: 10 }),
    });
    try {
      const demo = (await serialPorts.list()).ports.find((port) => port.isDemo);
      const session = await serialPorts.open({ path: demo!.path, logging: false });
      const terminal = readTerminal(session);
      await terminal.waitForText('kona-roof login: ');
      session.write('root\r');
      await terminal.waitForText('Password: ');
      session.write(`${GATEWAY.rootPassword}\r`);
      const from = (await terminal.waitForText(PROMPT)).length;
      session.write('rb\r');
      await terminal.waitForText('Ctrl-X Ctrl-X cancels\r\n', from);
      const file = createFile(50_000);
      await session.sendFile({ protocol: 'ymodem', name: 'demo.bin', data: file });
      await terminal.waitForText(`rb: received demo.bin: 50000 bytes, sha256 ${sha256(file)}\r\n`, from);
    } finally {
      await serialPorts.closeAll();
    }
  });
});
