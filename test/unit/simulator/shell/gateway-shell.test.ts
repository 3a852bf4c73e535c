import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GatewayShell, type GatewayShellContext } from '../../../../simulator/shell/gateway-shell';

const PROMPT = 'root@kona-test:~# ';

function createShellHarness(
  overrides: Partial<GatewayShellContext> = {},
  options: { isSlowSink?: boolean } = {},
) {
  let output = '';
  let maxPendingWrites = 0;
  let pendingWrites = 0;
  const exitCodes: number[] = [];
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
  const shell = new GatewayShell(
    {
      gatewayId: '647fdafffe00a1b2',
      hostname: 'kona-test',
      bspVersion: '7.1.2',
      clock: { now: () => Date.UTC(2026, 10, 22, 8, 30, 0) },
      bootedAt: new Date(Date.UTC(2026, 10, 20, 6, 15, 0)),
      followIntervalMs: 5,
      ...overrides,
    },
    {
      write: async (chunk) => {
        pendingWrites += 1;
        maxPendingWrites = Math.max(maxPendingWrites, pendingWrites);
        if (options.isSlowSink) await new Promise<void>((resolve) => setImmediate(resolve));
        output += chunk;
        pendingWrites -= 1;
        notify();
      },
      exit: (code) => {
        exitCodes.push(code);
        notify();
      },
    },
  );
  const harness = {
    shell,
    exitCodes,
    get output() {
      return output;
    },
    get maxPendingWrites() {
      return maxPendingWrites;
    },
    /** Resolves with the index of `text` in the output at or after `from`. */
    waitFor(text: string, from = 0): Promise<number> {
      return new Promise((resolve) => {
        waiters.push({ text, from, resolve });
        notify();
      });
    },
    /** Types a command line and resolves with what it printed before the next prompt. */
    async run(line: string): Promise<string> {
      const start = output.length;
      shell.input(`${line}\r`);
      const echoEnd = (await harness.waitFor(`${line}\r\n`, start)) + line.length + 2;
      const promptIndex = await harness.waitFor(PROMPT, echoEnd);
      return output.slice(echoEnd, promptIndex);
    },
  };
  return harness;
}

async function startShell(
  overrides: Partial<GatewayShellContext> = {},
  options: { isSlowSink?: boolean } = {},
) {
  const harness = createShellHarness(overrides, options);
  await harness.shell.start();
  return harness;
}

describe('GatewayShell', () => {
  it('greets with a banner and a root prompt named after the host', async () => {
    const harness = await startShell();
    expect(harness.output).toContain('BusyBox');
    expect(harness.output.endsWith(PROMPT)).toBe(true);
  });

  it('echoes keystrokes and answers uname -a with the kernel and host name', async () => {
    const harness = await startShell();
    expect(await harness.run('uname -a')).toMatch(
      /^Linux kona-test 4\.14\.98-kona .* armv7l GNU\/Linux\r\n$/,
    );
  });

  it('answers the shipped runbooks: packet forwarder status, its process and its log lines', async () => {
    const harness = await startShell();
    expect(await harness.run('/etc/init.d/pkt_fwd status')).toBe('running\r\n');
    expect(await harness.run('ps | grep pkt_fwd')).toMatch(/^ +812 root .* \/usr\/bin\/pkt_fwd -c /);
    expect(await harness.run('logread | grep pkt_fwd | tail -n 2')).toMatch(
      /^(.* pkt_fwd\[\d+\]: .*\r\n){2}$/,
    );
  });

  it('stops and starts the packet forwarder through its init script', async () => {
    const harness = await startShell({ isPacketForwarderRunning: false });
    expect(await harness.run('/etc/init.d/pkt_fwd status; echo $?')).toBe('inactive\r\n3\r\n');
    expect(await harness.run('ps | grep pkt_fwd; echo $?')).toBe('1\r\n');
    await harness.run('/etc/init.d/pkt_fwd start');
    expect(await harness.run('/etc/init.d/pkt_fwd status')).toBe('running\r\n');
  });

  it('tells its clock as BusyBox date does: plain, in epoch seconds, and refuses to set it', async () => {
    const harness = await startShell({ clock: { now: () => Date.UTC(2026, 10, 22, 8, 3, 9, 750) } });
    expect(await harness.run('date')).toBe('Sun Nov 22 08:03:09 UTC 2026\r\n');
    expect(await harness.run('date +%s')).toBe(`${Date.UTC(2026, 10, 22, 8, 3, 9) / 1000}\r\n`);
    expect(await harness.run('date -u +%Y-%m-%dT%H:%M:%S%%')).toBe('2026-11-22T08:03:09%\r\n');
    expect(await harness.run('date 2026-01-01; echo $?')).toBe("date: invalid date '2026-01-01'\r\n1\r\n");
  });

  it('says an unknown command is not found', async () => {
    const harness = await startShell();
    expect(await harness.run('foo --bar')).toBe('-sh: foo: not found\r\n');
  });

  it('takes LF alone as Enter and CRLF as a single Enter', async () => {
    const harness = await startShell();
    harness.shell.input('hostname\r\nwhoami\n');
    await harness.waitFor(`root\r\n${PROMPT}`);
    expect(harness.output.split(PROMPT).length - 1).toBe(3);
  });

  it('erases the last character on backspace', async () => {
    const harness = await startShell();
    harness.shell.input('whoamx\x7fi\r');
    await harness.waitFor(`root\r\n${PROMPT}`);
    expect(harness.output).toContain('whoamx\b \bi\r\n');
  });

  it('drops the line on Ctrl-C and prints a new prompt', async () => {
    const harness = await startShell();
    harness.shell.input('reboo\x03');
    await harness.waitFor(`^C\r\n${PROMPT}`);
    expect(await harness.run('hostname')).toBe('kona-test\r\n');
  });

  it('ignores arrow keys instead of inserting their escape sequences', async () => {
    const harness = await startShell();
    harness.shell.input('\x1b[A\x1b[Dhostname\x1bOB\r');
    await harness.waitFor(`kona-test\r\n${PROMPT}`);
    expect(harness.output).not.toContain('[A');
  });

  it('recalls earlier commands with the Up and Down arrows', async () => {
    const harness = await startShell();
    await harness.run('hostname');
    await harness.run('whoami');
    const start = harness.output.length;
    harness.shell.input('\x1b[A\x1b[A\x1b[B\r');
    await harness.waitFor(`root\r\n${PROMPT}`, start);
    expect(harness.output.slice(start)).toBe(
      `whoami\b \b\b \b\b \b\b \b\b \b\b \bhostname\b \b\b \b\b \b\b \b\b \b\b \b\b \b\b \bwhoami\r\nroot\r\n${PROMPT}`,
    );
  });

  it('exits on Ctrl-D at an empty line', async () => {
    const harness = await startShell();
    harness.shell.input('\x04');
    await harness.waitFor('logout');
    await expect.poll(() => harness.exitCodes).toEqual([0]);
  });

  it('exits with the code given to exit', async () => {
    const harness = await startShell();
    harness.shell.input('exit 3\r');
    await expect.poll(() => harness.exitCodes).toEqual([3]);
  });

  it('reports the BSP version and package versions', async () => {
    const harness = await startShell();
    const output = await harness.run('system_version');
    expect(output).toContain('BSP version:       7.1.2');
    expect(output).toContain('lora-packet-forwarder');
  });

  it('shows uptime since boot', async () => {
    const harness = await startShell();
    expect(await harness.run('uptime')).toMatch(/^ 08:30:00 up 2 days, {2}2:15, {2}load average/);
  });

  it('lists eth0 with a MAC address derived from the gateway id', async () => {
    const harness = await startShell();
    expect(await harness.run('ifconfig')).toMatch(
      /eth0 {6}Link encap:Ethernet {2}HWaddr 64:7F:DA(:[0-9A-F]{2}){3}/,
    );
  });

  it('shows known files and says others do not exist', async () => {
    const harness = await startShell();
    expect(await harness.run('cat /etc/os-release')).toContain('VERSION_ID=7.1.2\r\n');
    expect(await harness.run('cat /proc/cpuinfo')).toContain('ARMv7');
    expect(await harness.run('cat /etc/config/network')).toContain("option ifname 'eth0'");
    expect(await harness.run('cat /etc/shadow')).toBe(
      "cat: can't open '/etc/shadow': No such file or directory\r\n",
    );
  });

  it('prints the kernel log', async () => {
    const harness = await startShell();
    expect(await harness.run('dmesg')).toContain('Booting Linux on physical CPU 0x0');
  });

  it('prints the system log', async () => {
    const harness = await startShell();
    expect((await harness.run('logread')).split('\r\n').filter(Boolean).length).toBe(12);
  });

  it('follows the system log until Ctrl-C', async () => {
    const harness = await startShell();
    harness.shell.input('logread -f\r');
    const historyEnd = await harness.waitFor('daemon.info', 0);
    // Thirteen lines means at least one arrived after the history was printed.
    await expect.poll(() => harness.output.split('daemon.info').length - 1).toBeGreaterThan(13);
    harness.shell.input('\x03');
    const interrupted = await harness.waitFor(`^C\r\n${PROMPT}`, historyEnd);
    expect(harness.output.slice(interrupted)).toBe(`^C\r\n${PROMPT}`);
  });

  it('floods exactly the requested bytes followed by their sha256', async () => {
    const harness = await startShell();
    const output = await harness.run('flood 0.25');
    const match = /^([\s\S]*)sha256 ([0-9a-f]{64})\r\n$/.exec(output);
    expect(match).not.toBeNull();
    const [, flood = '', digest] = match!;
    expect(flood.length).toBe(250_000);
    expect(createHash('sha256').update(flood, 'latin1').digest('hex')).toBe(digest);
    expect(flood).toMatch(/^[0-9A-Za-z \r\n]+$/);
  });

  it('ends an odd-sized flood on a whole line', async () => {
    const harness = await startShell();
    const output = await harness.run('flood 0.000123');
    expect(output.length).toBe(123 + 'sha256 '.length + 64 + 2);
    expect(output.slice(0, 123).endsWith('\r\n')).toBe(true);
  });

  it('waits for the sink before producing more flood output', async () => {
    const harness = await startShell({}, { isSlowSink: true });
    await harness.run('flood 0.5');
    expect(harness.maxPendingWrites).toBe(1);
  });

  it('stops a flood on Ctrl-C without a checksum line', async () => {
    const harness = await startShell({}, { isSlowSink: true });
    harness.shell.input('flood 50\r');
    await harness.waitFor('00000400 ');
    harness.shell.input('\x03');
    const interrupted = await harness.waitFor(`^C\r\n${PROMPT}`);
    expect(harness.output).not.toContain('sha256');
    expect(interrupted).toBeLessThan(2_000_000);
  });

  it('rejects a flood size that is not a number', async () => {
    const harness = await startShell();
    expect(await harness.run('flood lots')).toBe("flood: invalid number 'lots'\r\n");
  });

  it('echoes typeahead during a flood and runs it afterwards', async () => {
    const harness = await startShell({}, { isSlowSink: true });
    harness.shell.input('flood 0.1\r');
    await harness.waitFor('00000010 ');
    harness.shell.input('hostname\r');
    await harness.waitFor(`sha256`);
    await harness.waitFor(`${PROMPT}hostname\r\nkona-test\r\n${PROMPT}`);
  });

  it('calls onReboot and ends the session on reboot', async () => {
    const reboots: string[] = [];
    const harness = await startShell({ onReboot: () => reboots.push('reboot') });
    harness.shell.input('reboot\r');
    await harness.waitFor('going down for reboot');
    await expect.poll(() => harness.exitCodes).toEqual([0]);
    expect(reboots).toEqual(['reboot']);
  });

  it('stops writing once the sink fails', async () => {
    let writes = 0;
    const shell = new GatewayShell(
      { gatewayId: 'gw', hostname: 'gw', bspVersion: '1.0' },
      {
        write: async () => {
          writes += 1;
          throw new Error('channel closed');
        },
        exit: () => {},
      },
    );
    await shell.start();
    shell.input('flood 10\r');
    await expect.poll(() => shell.isOpen).toBe(false);
    expect(writes).toBeLessThan(5);
  });
});
