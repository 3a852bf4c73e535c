import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runRunbook, type RunbookTerminal } from '../../../../electron/services/runbooks/runbook-runner';
import type { TerminalState } from '../../../../electron/services/terminal-core';
import type { Runbook, RunbookSessionResult } from '../../../../electron/shared/terminal/runbook-schemas';
import { ManualClock } from '../../../helpers/manual-clock';

/** A session that records what it is sent and prints what the test tells it to. */
class FakeTerminal extends EventEmitter implements RunbookTerminal {
  readonly title = 'kona-roof (serial)';
  state: TerminalState = 'open';
  readonly sent: string[] = [];
  constructor(readonly id = 'terminal-1') {
    super();
  }
  write(data: string): void {
    if (this.state !== 'open') throw new Error('the port is closed');
    this.sent.push(data);
  }
  print(text: string): void {
    this.emit('data', new TextEncoder().encode(text));
  }
  end(state: TerminalState, reason: string): void {
    this.state = state;
    this.emit('state', state, reason);
  }
}

function makeRunbook(steps: Runbook['steps']): Runbook {
  return { id: 'runbook-1', name: 'Packet forwarder', steps };
}

const STATUS_STEPS: Runbook['steps'] = [
  { send: 'ps | grep pkt_fwd', wait: { kind: 'text', value: '/usr/bin/pkt_fwd' }, timeLimitSeconds: 5 },
  { send: '/etc/init.d/pkt_fwd status', wait: { kind: 'pattern', value: '^running$' }, timeLimitSeconds: 5 },
];

/** Lets the runner's awaits settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('runRunbook', () => {
  it('sends each line after the step before saw what it waited for', async () => {
    const clock = new ManualClock(1_000);
    const terminal = new FakeTerminal();
    const running = runRunbook(terminal, makeRunbook(STATUS_STEPS), { clock });
    await settle();
    expect(terminal.sent).toEqual(['ps | grep pkt_fwd\r']);
    terminal.print(
      'ps | grep pkt_fwd\r\n  812 root  5400 S  /usr/bin/pkt_fwd -c /etc/pkt_fwd/config.json\r\n# ',
    );
    await settle();
    expect(terminal.sent).toEqual(['ps | grep pkt_fwd\r', '/etc/init.d/pkt_fwd status\r']);
    clock.advance(1_500);
    terminal.print('/etc/init.d/pkt_fwd status\r\n\x1b[32mrunning\x1b[0m\r\n# ');
    const result = await running;
    expect(result.outcome).toBe('ok');
    expect(result.steps).toEqual([
      {
        status: 'seen',
        seenIn: '  812 root  5400 S  /usr/bin/pkt_fwd -c /etc/pkt_fwd/config.json',
        elapsedMs: 0,
      },
      { status: 'seen', seenIn: 'running', elapsedMs: 1_500 },
    ]);
  });

  it('does not take the echo of the line sent for what it waits for', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const running = runRunbook(
      terminal,
      makeRunbook([
        { send: 'ps | grep pkt_fwd', wait: { kind: 'text', value: 'pkt_fwd' }, timeLimitSeconds: 3 },
      ]),
      { clock },
    );
    await settle();
    // Echoed one key at a time, as a serial console does; grep then finds nothing.
    for (const character of 'ps | grep pkt_fwd\r\n') terminal.print(character);
    terminal.print('root@kona:~# ');
    clock.advance(3_000);
    const result = await running;
    expect(result.outcome).toBe('failed');
    expect(result.steps[0]).toMatchObject({ status: 'not-seen', message: 'Not seen within 3 s.' });
  });

  it('stops at the first step that does not see what it waits for within its time limit', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const progress: RunbookSessionResult[] = [];
    const running = runRunbook(terminal, makeRunbook(STATUS_STEPS), {
      clock,
      onProgress: (result) => progress.push(result),
    });
    await settle();
    expect(progress.at(-1)?.current).toEqual({ index: 0, waitEndsAt: 5_000 });
    terminal.print('ps | grep pkt_fwd\r\nroot@kona:~# ');
    clock.advance(4_999);
    await settle();
    expect(progress.at(-1)?.outcome).toBe('running');
    clock.advance(1);
    const result = await running;
    expect(result.outcome).toBe('failed');
    expect(result.steps.map((step) => step.status)).toEqual(['not-seen', 'not-run']);
    expect(result.steps[0]?.elapsedMs).toBe(5_000);
    expect(terminal.sent).toEqual(['ps | grep pkt_fwd\r']);
  });

  it('ends the wait under way as cancelled when the run is cancelled', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const controller = new AbortController();
    const running = runRunbook(terminal, makeRunbook(STATUS_STEPS), { clock, signal: controller.signal });
    await settle();
    controller.abort();
    const result = await running;
    expect(result.outcome).toBe('cancelled');
    expect(result.steps.map((step) => step.status)).toEqual(['cancelled', 'not-run']);
    expect(terminal.listenerCount('data')).toBe(0);
  });

  it('fails the step under way when the session closes, and says why', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const running = runRunbook(terminal, makeRunbook(STATUS_STEPS), { clock });
    await settle();
    terminal.end('closed', 'the USB adapter was unplugged');
    const result = await running;
    expect(result.steps[0]).toMatchObject({
      status: 'failed',
      message: 'The session closed: the USB adapter was unplugged.',
    });
  });

  it('marks a step with nothing to wait for as sent and goes on at once', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const result = await runRunbook(
      terminal,
      makeRunbook([
        { send: 'export LANG=C', timeLimitSeconds: 1 },
        { send: '', timeLimitSeconds: 1 },
      ]),
      { clock },
    );
    expect(result.steps.map((step) => step.status)).toEqual(['sent', 'sent']);
    expect(terminal.sent).toEqual(['export LANG=C\r', '\r']);
  });

  it('finds a pattern in a prompt that has no line end yet', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const running = runRunbook(
      terminal,
      makeRunbook([{ send: '', wait: { kind: 'pattern', value: 'login: $' }, timeLimitSeconds: 10 }]),
      { clock },
    );
    await settle();
    terminal.print('\r\n\r\nTektelic Kona Linux 7.1.2 kona-roof ttyS0\r\n\r\nkona-roof login: ');
    const result = await running;
    expect(result.steps[0]).toMatchObject({ status: 'seen', seenIn: 'kona-roof login: ' });
  });

  it('tries a long line without its end yet only once the line ends', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const progress: RunbookSessionResult[] = [];
    const running = runRunbook(
      terminal,
      makeRunbook([{ send: 'flash', wait: { kind: 'pattern', value: 'done$' }, timeLimitSeconds: 60 }]),
      { clock, onProgress: (result) => progress.push(result) },
    );
    await settle();
    terminal.print(`flash\r\n${'.'.repeat(200)}done`);
    await settle();
    expect(progress.at(-1)?.outcome).toBe('running');
    terminal.print('\r\n# ');
    expect((await running).steps[0]?.status).toBe('seen');
  });

  it('tries a pattern on the first 512 characters of each line only', async () => {
    const clock = new ManualClock();
    const terminal = new FakeTerminal();
    const running = runRunbook(
      terminal,
      makeRunbook([
        { send: 'cat big.log', wait: { kind: 'pattern', value: 'ERR[0-9]+' }, timeLimitSeconds: 2 },
      ]),
      { clock },
    );
    await settle();
    terminal.print(`cat big.log\r\n${'x'.repeat(600)}ERR42\r\n# `);
    clock.advance(2_000);
    expect((await running).steps[0]?.status).toBe('not-seen');
  });
});
