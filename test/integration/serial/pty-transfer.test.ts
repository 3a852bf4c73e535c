import { afterEach, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import { TerminalManager } from '../../../electron/services/terminals/terminal-manager';
import type { TerminalInfo } from '../../../electron/shared/terminal/terminal-schemas';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readTerminal, waitForState } from './terminal-reader';
import { serialOnlyTerminals } from '../../helpers/serial-only-terminals';

/** Every byte value, several times over, in a scrambled but reproducible order. */
function createPattern(length: number): Buffer {
  const pattern = Buffer.alloc(length);
  for (let index = 0; index < length; index += 1) pattern[index] = (index * 167 + (index >> 8)) & 0xff;
  return pattern;
}

const SETTINGS = [
  { name: '9600 8N1', options: { baudRate: 9_600 } },
  { name: '115200 7E2', options: { baudRate: 115_200, dataBits: 7, parity: 'even', stopBits: 2 } },
  { name: '921600 8O1 with RTS/CTS', options: { baudRate: 921_600, parity: 'odd', flowControl: 'rts-cts' } },
  { name: '31337 (a custom rate) 8N1', options: { baudRate: 31_337 } },
] as const;

describe('serial over socat pseudo-terminals', () => {
  let socat: SocatPair;
  let farEnd: RawPortEnd | undefined;
  let serialPorts: SerialPorts;

  beforeEach(async () => {
    socat = await startSocatPair();
    serialPorts = new SerialPorts({
      reconnect: { pollIntervalMs: 20, giveUpAfterMs: 20_000 },
    });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await farEnd?.close();
    farEnd = undefined;
    await socat.cleanup();
  });

  for (const setting of SETTINGS) {
    it(`moves every byte value both ways unchanged at ${setting.name}`, async () => {
      // A pty ignores the line settings, but they still go through validation and the binding's open.
      const session: SerialSession = await serialPorts.open({
        path: socat.pathA,
        logging: false,
        ...setting.options,
      });
      farEnd = await openRawEnd(socat.pathB);
      const terminal = readTerminal(session);
      const inbound = createPattern(100_000);
      await farEnd.write(inbound);
      expect((await terminal.waitForBytes(inbound.length)).equals(inbound)).toBe(true);
      const outbound = createPattern(50_000).reverse();
      await session.writeBytes(outbound);
      expect((await farEnd.waitForBytes(outbound.length)).equals(outbound)).toBe(true);
      expect([session.bytesIn, session.bytesOut]).toEqual([inbound.length, outbound.length]);
    });
  }

  it('sends Enter as CRLF when told to', async () => {
    const session = await serialPorts.open({ path: socat.pathA, logging: false, txNewline: 'crlf' });
    farEnd = await openRawEnd(socat.pathB);
    session.write('uname -a\r');
    expect((await farEnd.waitForBytes(10)).toString('latin1')).toBe('uname -a\r\n');
  });

  it('reconnects by itself when socat comes back on the same link path', async () => {
    const session = await serialPorts.open({ path: socat.pathA, logging: false });
    const states: string[] = [];
    session.on('state', (state, reason) => states.push(`${state}: ${reason ?? ''}`));
    onTestFailed(() => console.error(`session states: ${JSON.stringify(states)}`));
    const reconnecting = waitForState(session, 'reconnecting');
    await socat.stop();
    expect(await reconnecting).toMatch(/^Disconnected/);
    const reopened = waitForState(session, 'open');
    await socat.restart();
    expect(await reopened).toBe(`Reconnected on ${socat.pathA}`);
    farEnd = await openRawEnd(socat.pathB);
    const terminal = readTerminal(session);
    await farEnd.write('back again\r\n');
    await terminal.waitForText('back again\r\n');
    session.write('ok\r');
    await farEnd.waitForText('ok\r');
  });

  it('shows DTR/RTS as unknown while the unplugged port reconnects, and again once it is open', async () => {
    const states: TerminalInfo[] = [];
    const manager = new TerminalManager({
      events: {
        emit: (event, payload) => {
          if (event === 'terminal:state') states.push((payload as { session: TerminalInfo }).session);
        },
      },
      ...serialOnlyTerminals(serialPorts),
    });
    try {
      const opened = await manager.openSerial({ path: socat.pathA, logging: false });
      expect(opened.signals).toEqual({ dtr: true, rts: true });
      expect(manager.list()[0]?.state).toBe('open');
      await socat.stop();
      await expect.poll(() => states.at(-1)?.state).toBe('reconnecting');
      expect(states.at(-1)).not.toHaveProperty('signals');
      expect(manager.list()[0]).not.toHaveProperty('signals');
      await socat.restart();
      await expect.poll(() => states.at(-1)?.state, { timeout: 10_000 }).toBe('open');
      expect(states.at(-1)?.signals).toEqual({ dtr: true, rts: true });
    } finally {
      await manager.closeAll();
    }
  });

  it('notices a hung-up line that only ever reads as end of file', async () => {
    // Paused by flow control, the session has no read in flight when socat dies; its next read meets a tty that
    // is already hung up, which returns 0 bytes forever instead of an error.
    const pausingPorts = new SerialPorts({
      flow: { highWatermark: 10, lowWatermark: 0 },
      reconnect: { pollIntervalMs: 20, giveUpAfterMs: 20_000 },
    });
    const session = await pausingPorts.open({ path: socat.pathA, logging: false });
    try {
      farEnd = await openRawEnd(socat.pathB);
      const terminal = readTerminal(session, { isAcknowledging: false });
      await farEnd.write('0123456789abcdefghij');
      await terminal.waitForBytes(10);
      expect(session.isPaused).toBe(true);
      await farEnd.close();
      farEnd = undefined;
      await socat.stop();
      const reconnecting = waitForState(session, 'reconnecting');
      session.acknowledge(10);
      expect(await reconnecting).toMatch(/^Disconnected: the line was hung up/);
    } finally {
      await pausingPorts.closeAll();
    }
  });

  it('says plainly that a pseudo-terminal cannot send a break or set DTR', async () => {
    const session = await serialPorts.open({ path: socat.pathA, logging: false });
    await expect(session.sendBreak(10)).rejects.toThrow(
      'Could not send a break: this port has no modem control lines (a pseudo-terminal or a virtual port)',
    );
    await expect(session.setSignals({ dtr: false })).rejects.toThrow(
      /^Could not set DTR\/RTS: this port has no modem/,
    );
    expect(session.state).toBe('open');
  });

  it('explains that Linux drivers refuse mark parity and 1.5 stop bits', async () => {
    await expect(serialPorts.open({ path: socat.pathA, logging: false, parity: 'mark' })).rejects.toThrow(
      /does not support mark or space parity/,
    );
    await expect(serialPorts.open({ path: socat.pathA, logging: false, stopBits: 1.5 })).rejects.toThrow(
      /does not support 1\.5 stop bits/,
    );
  });

  it('frees the port on close so another program can open it', async () => {
    const session = await serialPorts.open({ path: socat.pathA, logging: false });
    await session.close();
    const other = await openRawEnd(socat.pathA);
    await other.close();
  });
});
