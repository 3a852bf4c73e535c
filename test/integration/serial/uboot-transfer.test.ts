import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'vitest';
import { SerialPorts } from '../../../electron/services/serial/serial-ports';
import type { SerialSession } from '../../../electron/services/serial/serial-session';
import { SUB } from '../../../electron/services/serial/ymodem';
import { attachSerialConsole, type AttachedSerialConsole } from '../../../simulator/serial/pty-console';
import { readTerminal } from './terminal-reader';

// Recovery through the boot loader: the simulated gateway's console on a socat pty is rebooted into its U-Boot
// prompt, `loady` / `loadx` wait for a file, the app's sender sends it, and U-Boot's `hash sha256` reports the
// SHA-256 of the bytes it loaded.

const GATEWAY = {
  gatewayId: '647fdafffe00c0de',
  hostname: 'kona-roof',
  bspVersion: '7.1.2',
  rootPassword: 'Label-Pass-42',
};

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe("sending a file to the simulated gateway's U-Boot", () => {
  let directory: string;
  let attached: AttachedSerialConsole;
  let serialPorts: SerialPorts;
  let session: SerialSession;
  let terminal: ReturnType<typeof readTerminal>;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'uboot-file-'));
    attached = await attachSerialConsole({
      gateway: GATEWAY,
      linkPath: join(directory, 'console'),
      rebootDelayMs: 10,
      autobootDelayMs: 60_000,
    });
    serialPorts = new SerialPorts({});
    session = await serialPorts.open({ path: attached.linkPath, logging: false });
    terminal = readTerminal(session);
    session.write('\r');
    await terminal.waitForText('kona-roof login: ');
    session.write('root\r');
    await terminal.waitForText('Password: ');
    session.write(`${GATEWAY.rootPassword}\r`);
    await terminal.waitForText('root@kona-roof:~# ');
    const from = terminal.byteCount;
    session.write('reboot\r');
    await terminal.waitForText('Hit any key to stop autoboot', from);
    session.write(' ');
    await terminal.waitForText('\r\n=> ', from);
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await attached.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('loads a file by YMODEM with loady, and hash sha256 reports the same SHA-256', async () => {
    const file = randomBytes(150_000);
    const from = terminal.byteCount;
    session.write('loady\r');
    await terminal.waitForText(
      '## Ready for binary (ymodem) download to 0x82000000 at 115200 bps...\r\n',
      from,
    );
    await session.sendFile({ protocol: 'ymodem', name: 'kona-7.1.3.itb', data: file }, {});
    await terminal.waitForText('## Total Size      = 0x000249f0 = 150000 Bytes\r\n=> ', from);
    session.write('hash sha256 ${loadaddr} ${filesize}\r');
    await terminal.waitForText(`sha256 for 82000000 ... 820249ef ==> ${sha256(file)}\r\n=> `, from);
  });

  it('loads a file by XMODEM-1K with loadx', async () => {
    const file = randomBytes(40_000);
    if (file[file.length - 1] === SUB) file[file.length - 1] = 0;
    const from = terminal.byteCount;
    session.write('loadx\r');
    await terminal.waitForText('## Ready for binary (xmodem) download', from);
    await session.sendFile({ protocol: 'xmodem-1k', name: 'kona.itb', data: file }, {});
    await terminal.waitForText('## Total Size      = 0x00009c40 = 40000 Bytes\r\n=> ', from);
    session.write('hash sha256 ${loadaddr} ${filesize}\r');
    await terminal.waitForText(`==> ${sha256(file)}\r\n`, from);
    session.write('boot\r');
    await terminal.waitForText('kona-roof login: ', from);
  });
});
