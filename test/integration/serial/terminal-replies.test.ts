import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import { openRawEnd, startSocatPair, type RawPortEnd, type SocatPair } from '../../helpers/socat';
import { readLogWithoutLineTimes } from '../../helpers/session-log';

const DA2_QUERY = '\x1b[>c';
/** xterm.js's answer to DA2; as text on its screen it reads as another DA2 query (first parameter 0). */
const DA2_REPLY = '\x1b[>0;276;0c';
const DSR_QUERY = '\x1b[5n';
const DSR_REPLY = '\x1b[0n';

/**
 * Plays xterm.js behind the session: shows what the session hands over (acknowledging it) and answers DA2 and
 * DSR queries on the screen as xterm.js does, through `write`, a turn of the event loop later (as over IPC).
 */
function answerLikeXterm(session: SerialSession): { screen: () => string } {
  let screen = '';
  session.on('data', (chunk) => {
    const text = Buffer.from(chunk).toString('latin1');
    screen += text;
    session.acknowledge(chunk.length);
    const replies: string[] = [];
    // eslint-disable-next-line no-control-regex
    for (const match of text.matchAll(/\x1b\[>(\d*)[\d;]*c|\x1b\[5n/g)) {
      if (match[0] === DSR_QUERY) replies.push(DSR_REPLY);
      else if ((match[1] ?? '') === '' || match[1] === '0') replies.push(DA2_REPLY);
    }
    for (const reply of replies) setImmediate(() => session.write(reply));
  });
  return { screen: () => screen };
}

describe("serial local echo and the terminal's own replies", () => {
  let socat: SocatPair;
  let device: RawPortEnd | undefined;
  let serialPorts: SerialPorts;
  let logsDir: string;

  beforeEach(async () => {
    socat = await startSocatPair();
    logsDir = await mkdtemp(join(tmpdir(), 'serial-replies-'));
    serialPorts = new SerialPorts({ logsDir });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await device?.close();
    device = undefined;
    await socat.cleanup();
    await rm(logsDir, { recursive: true, force: true });
  });

  it('answers one DA2 query once: the reply reaches the device but neither the screen nor the log', async () => {
    const session = await serialPorts.open({ path: socat.pathA, localEcho: true, logging: true });
    const terminal = answerLikeXterm(session);
    device = await openRawEnd(socat.pathB);

    await device.write(`login: ${DA2_QUERY}`);
    await device.waitForText(DA2_REPLY);
    // A round trip after it: had the reply been echoed, its own answer would reach the device first.
    await device.write(DSR_QUERY);
    await device.waitForText(DSR_REPLY);
    session.write('root\r');
    await device.waitForText('root\r');

    expect(device.received.toString('latin1')).toBe(`${DA2_REPLY}${DSR_REPLY}root\r`);
    expect(terminal.screen()).toBe(`login: ${DA2_QUERY}${DSR_QUERY}root\r\n`);
    const logPath = session.logPath!;
    await session.close();
    expect(await readLogWithoutLineTimes(logPath)).toBe(`login: ${DA2_QUERY}${DSR_QUERY}root\r\n`);
  });
});
