import { describe, expect, it } from 'vitest';
import { runSerialTriage } from '../../../../electron/services/serial/serial-triage';
import { ScriptedConsole, scriptedShell as shell } from '../../../helpers/scripted-console';
import { outcomeInWords as shown } from '../../../helpers/triage-words';
import { ManualClock, SIMULATED_START_MS } from '../../../helpers/manual-clock';

const IFCONFIG = [
  'eth0      Link encap:Ethernet  HWaddr 64:7F:DA:01:A2:B3',
  '          inet addr:192.168.1.20  Bcast:192.168.1.255  Mask:255.255.255.0',
  '          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1',
  '',
].join('\r\n');

describe('runSerialTriage', () => {
  it('falls back to ifconfig and route -n where ip is not there', async () => {
    const console = new ScriptedConsole(
      shell({ ifconfig: IFCONFIG, 'route -n': 'Kernel IP routing table\r\n' }),
    );
    const outcome = await runSerialTriage(console, {
      steps: [
        { key: 'addresses', command: 'ip addr', fallback: 'ifconfig' },
        { key: 'routes', command: 'ip route', fallback: 'route -n' },
      ],
      wallClock: () => SIMULATED_START_MS,
    });
    expect(outcome.commands.map((command) => [command.command, command.exitCode])).toEqual([
      ['ip addr', 127],
      ['ifconfig', 0],
      ['ip route', 127],
      ['route -n', 0],
    ]);
    expect(outcome.readings.addresses).toEqual({
      command: 'ifconfig',
      output: IFCONFIG.replace(/\r/g, ''),
      exitCode: 0,
      answeredAt: SIMULATED_START_MS,
    });
  });

  it("reads the gateway's clock with date +%s and keeps the laptop's time when it answered", async () => {
    const clock = new ManualClock(SIMULATED_START_MS);
    const console = new ScriptedConsole((line) => {
      // The laptop's clock moves on while the gateway answers: the time kept is the one after the answer.
      if (line.startsWith('date +%s')) clock.advance(1_500);
      return shell({ 'date +%s': `${SIMULATED_START_MS / 1000 - 432}\r\n`, uptime: ' up 1 min\r\n' })(line);
    });
    const outcome = await runSerialTriage(console, {
      steps: [
        { key: 'uptime', command: 'uptime' },
        { key: 'clock', command: 'date +%s' },
      ],
      wallClock: () => clock.now(),
    });
    expect(outcome.readings.clock).toEqual({
      command: 'date +%s',
      output: `${SIMULATED_START_MS / 1000 - 432}\n`,
      exitCode: 0,
      answeredAt: SIMULATED_START_MS + 1_500,
    });
  });

  it('reads the output of a console that does not echo', async () => {
    const console = new ScriptedConsole(
      shell({ uptime: ' 10:00:00 up 17 min,  load average: 0.00, 0.00, 0.00\r\n' }, { isEchoing: false }),
    );
    const outcome = await runSerialTriage(console, { steps: [{ key: 'uptime', command: 'uptime' }] });
    expect(outcome.readings.uptime?.output).toBe(' 10:00:00 up 17 min,  load average: 0.00, 0.00, 0.00\n');
  });

  it('stops at a prompt a command prints, sends Ctrl-C and answers nothing', async () => {
    const console = new ScriptedConsole((line) => {
      if (line === '') return '# ';
      if (line.startsWith('mmcli')) return `${line}\r\nReally reset the modem? (y/n) `;
      return shell({})(line);
    });
    const outcome = await runSerialTriage(console, {
      steps: [
        { key: 'modem', command: 'mmcli -m 0' },
        { key: 'uptime', command: 'uptime' },
      ],
    });
    expect(shown(outcome)).toMatchObject({
      outcome: 'stopped',
      problem:
        'Stopped at `mmcli -m 0`: it asked "(y/n)" (diagnostics never answers a prompt; Ctrl-C was sent).',
    });
    expect(outcome.commands).toEqual([
      expect.objectContaining({ command: 'mmcli -m 0', outcome: 'prompted' }),
    ]);
    expect(console.sent.slice(-1)).toEqual(['^C']);
    expect(console.sent.some((line) => line.startsWith('uptime'))).toBe(false);
  });

  it('goes back to the login prompt when someone had typed a user name', async () => {
    let stage: 'password' | 'login' | 'shell' = 'password';
    const console = new ScriptedConsole((line) => {
      if (stage === 'password') {
        stage = 'login';
        return 'Password: ';
      }
      if (stage === 'login' && line === '') return '\r\nLogin incorrect\r\nkona login: ';
      if (stage === 'login' && line === 'root') return 'root\r\nPassword: ';
      if (stage === 'login' && line === 'label-pass') {
        stage = 'shell';
        return '\r\nroot@kona:~# ';
      }
      if (stage === 'shell' && line === 'exit') return 'exit\r\n\r\nkona login: ';
      return shell({ uptime: ' 10:00:00 up 1 min,  load average: 0.00, 0.00, 0.00\r\n' })(line);
    });
    const outcome = await runSerialTriage(console, {
      password: 'label-pass',
      steps: [{ key: 'uptime', command: 'uptime' }],
    });
    expect(shown(outcome)).toMatchObject({
      outcome: 'complete',
      usedPassword: true,
      consoleLeft: 'Logged out again: diagnostics had logged in as root.',
    });
    expect(console.sent.slice(0, 4)).toEqual(['', '', 'root', 'label-pass']);
    expect(console.sent.at(-1)).toBe('exit');
  });

  it('stops after the command under way when cancelled, and logs nothing out it did not log into', async () => {
    const controller = new AbortController();
    const console = new ScriptedConsole((line) => {
      if (line.startsWith('uptime')) controller.abort();
      return shell({ uptime: ' 10:00:00 up 1 min\r\n', ps: '  PID USER COMMAND\r\n' })(line);
    });
    const outcome = await runSerialTriage(console, {
      signal: controller.signal,
      steps: [
        { key: 'uptime', command: 'uptime' },
        { key: 'processes', command: 'ps' },
      ],
    });
    expect(shown(outcome)).toMatchObject({
      outcome: 'stopped',
      problem: 'Cancelled after `uptime` (1 of 2 commands run).',
      readings: { uptime: { exitCode: 0 } },
    });
    expect(outcome).not.toHaveProperty('consoleLeft');
    expect(console.sent.some((line) => line.startsWith('ps') || line === 'exit')).toBe(false);
  });

  it('says what it waits for, the command, and the most the whole run can still take', async () => {
    const console = new ScriptedConsole(shell({ uptime: ' 10:00:00 up 1 min\r\n', ps: 'PID\r\n' }));
    const progress: unknown[] = [];
    await runSerialTriage(console, {
      commandTimeoutMs: 1_000,
      promptTimeoutMs: 500,
      onProgress: (update) => progress.push(update),
      steps: [
        { key: 'uptime', command: 'uptime' },
        { key: 'processes', command: 'ps' },
      ],
    });
    expect(progress).toEqual([
      {
        waitingFor: 'prompt',
        done: 0,
        total: 2,
        remainingMs: 500 + 5_500 + 1_500 + 1_500,
      },
      {
        waitingFor: 'answer',
        command: 'uptime',
        done: 0,
        total: 2,
        remainingMs: 1_500 + 1_500,
      },
      { waitingFor: 'answer', command: 'ps', done: 1, total: 2, remainingMs: 1_500 },
    ]);
  });

  it('says the console is not open instead of writing to it', async () => {
    const console = new ScriptedConsole(shell({}));
    console.state = 'reconnecting';
    const outcome = await runSerialTriage(console);
    expect(shown(outcome)).toMatchObject({
      outcome: 'stopped',
      problem: 'The serial console is not open (reconnecting): reconnect it first.',
    });
    expect(console.sent).toEqual([]);
  });
});

describe('runSerialTriage on a flooding console', () => {
  it('finds the end marker split across chunks after 64 KiB of digits printed 100 at a time', async () => {
    const digits = '7'.repeat(64 * 1024);
    const console = new ScriptedConsole((line, target) => {
      const match = /^(.*); echo (__FK_END_\S+_)\$\?$/.exec(line);
      if (!match) return 'root@kona:~# ';
      target.print(`${line}\r\n`);
      for (let offset = 0; offset < digits.length; offset += 100)
        target.print(digits.slice(offset, offset + 100));
      target.print(`\r\n${match[2]!.slice(0, 6)}`);
      target.print(`${match[2]!.slice(6)}0\r\n`);
      return 'root@kona:~# ';
    });
    const outcome = await runSerialTriage(console, {
      steps: [{ key: 'ping', command: 'ping -c 3 -W 2 8.8.8.8' }],
      wallClock: () => SIMULATED_START_MS,
    });
    expect(outcome.outcome).toBe('complete');
    expect(outcome.readings.ping).toEqual({
      command: 'ping -c 3 -W 2 8.8.8.8',
      output: `${digits}\n`,
      exitCode: 0,
      answeredAt: SIMULATED_START_MS,
    });
  });
});
