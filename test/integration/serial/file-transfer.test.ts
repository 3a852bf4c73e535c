import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import {
  CAN,
  CRC_REQUEST,
  NAK,
  SUB,
  type FileTransferProgress,
} from '../../../electron/services/serial/ymodem';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readTerminal } from './terminal-reader';

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
    const sending = session.sendFile({ protocol: 'xmodem-1k', name: 'fw.bin', data: createFile(4_096) });
    await farEnd.write(new Uint8Array([CRC_REQUEST]));
    const frameSize = 1_029;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await farEnd.waitForBytes(frameSize * attempt);
      await farEnd.write(new Uint8Array(attempt < 3 ? [NAK] : [CAN, CAN]));
    }
    await expect(sending).rejects.toMatchObject({
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
