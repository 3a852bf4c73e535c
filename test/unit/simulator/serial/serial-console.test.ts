import { describe, expect, it } from 'vitest';
import { SerialConsole } from '../../../../simulator/serial/serial-console';

const GATEWAY = {
  gatewayId: '647fdafffe00a1b2',
  hostname: 'kona-7',
  bspVersion: '7.1.2',
  rootPassword: 'label-pass',
};

function createConsole(options: { autobootDelayMs?: number } = {}) {
  let output = '';
  const waiters: { text: string; from: number; resolve: (index: number) => void }[] = [];
  const notify = () => {
    for (const waiter of [...waiters]) {
      const index = output.indexOf(waiter.text, waiter.from);
      if (index >= 0) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(index);
      }
    }
  };
  const reboots: number[] = [];
  const serialConsole = new SerialConsole({
    gateway: GATEWAY,
    loginFailureDelayMs: 1,
    rebootDelayMs: 1,
    autobootDelayMs: options.autobootDelayMs ?? 1,
    onReboot: () => reboots.push(1),
    io: {
      write: async (chunk) => {
        output += chunk;
        notify();
      },
    },
  });
  return {
    serialConsole,
    reboots,
    get output() {
      return output;
    },
    waitFor(text: string, from = 0): Promise<number> {
      return new Promise((resolve) => {
        waiters.push({ text, from, resolve });
        notify();
      });
    },
  };
}

describe('SerialConsole', () => {
  it('asks for a login with the host name', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    expect(harness.output.endsWith('kona-7 login: ')).toBe(true);
  });

  it('logs root in with the label password and starts the shell', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('root\rlabel-pass\r');
    await harness.waitFor('root@kona-7:~# ');
    harness.serialConsole.input('uname -a\r');
    await harness.waitFor('Linux kona-7 ');
  });

  it('never echoes the password', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('root\nlabel-pass\n');
    await harness.waitFor('root@kona-7:~# ');
    expect(harness.output).not.toContain('label-pass');
  });

  it('answers a wrong password with Login incorrect and asks again', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('root\rguess\r');
    const failure = await harness.waitFor('Login incorrect\r\n');
    await harness.waitFor('kona-7 login: ', failure);
    expect(harness.output).not.toContain('root@kona-7');
  });

  it('refuses a user other than root even with the right password', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('admin\rlabel-pass\r');
    await harness.waitFor('Login incorrect');
  });

  it('returns to the login prompt when the shell exits', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('root\rlabel-pass\r');
    const shellStart = await harness.waitFor('root@kona-7:~# ');
    harness.serialConsole.input('exit\r');
    await harness.waitFor('kona-7 login: ', shellStart);
  });

  it('reboots back to the login prompt and reports the reboot', async () => {
    const harness = createConsole();
    await harness.serialConsole.start();
    harness.serialConsole.input('root\rlabel-pass\r');
    const shellStart = await harness.waitFor('root@kona-7:~# ');
    harness.serialConsole.input('reboot\r');
    const bootStart = await harness.waitFor('Starting kernel', shellStart);
    await harness.waitFor('kona-7 login: ', bootStart);
    expect(harness.reboots).toEqual([1]);
  });

  it('stops in U-Boot on a key during the autoboot countdown, then boots Linux on boot', async () => {
    const harness = createConsole({ autobootDelayMs: 60_000 });
    await harness.serialConsole.start();
    harness.serialConsole.input('root\rlabel-pass\r');
    const shellStart = await harness.waitFor('root@kona-7:~# ');
    harness.serialConsole.input('reboot\r');
    await harness.waitFor('Hit any key to stop autoboot', shellStart);
    harness.serialConsole.input(' ');
    const promptAt = await harness.waitFor('\r\n=> ', shellStart);
    harness.serialConsole.input('printenv loadaddr\r');
    await harness.waitFor('loadaddr=82000000\r\n=> ', promptAt);
    harness.serialConsole.input('loady\r');
    await harness.waitFor('## This console cannot receive a file\r\n=> ', promptAt);
    harness.serialConsole.input('boot\r');
    const bootStart = await harness.waitFor('Starting kernel', promptAt);
    await harness.waitFor('kona-7 login: ', bootStart);
  });
});
