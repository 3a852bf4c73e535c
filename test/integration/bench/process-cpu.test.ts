import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  pageTimeShares,
  readRendererSchedules,
  readSchedules,
  readThreadSchedule,
  timeShares,
  timeSpent,
} from '../../bench/process-cpu';

describe('thread schedules from /proc', () => {
  const children: ReturnType<typeof spawn>[] = [];
  // Each child is gone before the next test reads the process tree (a killed child lingers until reaped).
  afterEach(async () => {
    await Promise.all(
      children.splice(0).map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        return exited;
      }),
    );
  });

  it('reads how long this process has run, growing as it works', async () => {
    const before = (await readThreadSchedule(process.pid))!;
    let sum = 0;
    for (let index = 0; index < 5_000_000; index += 1) sum += index % 7;
    const after = (await readThreadSchedule(process.pid))!;

    expect(sum).toBeGreaterThan(0);
    expect(after.runningMs).toBeGreaterThan(before.runningMs);
    expect(after.waitingMs).toBeGreaterThanOrEqual(before.waitingMs);
  });

  it('reads the named main threads and the renderers in one reading', async () => {
    const renderer = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20_000)', '--', '--type=renderer']);
    children.push(renderer);
    await new Promise((resolve) => renderer.once('spawn', resolve));

    const reading = await readSchedules(process.pid, { self: process.pid });

    expect(reading.threads.self.runningMs).toBeGreaterThan(0);
    expect([...reading.renderers.keys()]).toEqual([renderer.pid]);
  });

  it('says nothing for a process that does not exist', async () => {
    expect(await readThreadSchedule(2 ** 22 + 1)).toBeUndefined();
  });

  it('finds the renderer processes under a browser by their command line, not the others', async () => {
    const script = 'setTimeout(() => {}, 20_000)';
    const renderer = spawn(process.execPath, ['-e', script, '--', '--type=renderer']);
    const gpu = spawn(process.execPath, ['-e', script, '--', '--type=gpu-process']);
    children.push(renderer, gpu);
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('spawn', resolve))));

    const schedules = await readRendererSchedules(process.pid);

    expect([...schedules.keys()]).toEqual([renderer.pid]);
  });
});

describe('timeShares', () => {
  it('splits a span into running, waiting for a core and asleep', () => {
    const shares = timeShares({ runningMs: 100, waitingMs: 10 }, { runningMs: 160, waitingMs: 30 }, 100);

    expect(shares.running).toBeCloseTo(0.6);
    expect(shares.waiting).toBeCloseTo(0.2);
    expect(shares.idle).toBeCloseTo(0.2);
  });

  it('never reports a negative share asleep when the readings overrun the span', () => {
    expect(timeShares({ runningMs: 0, waitingMs: 0 }, { runningMs: 90, waitingMs: 20 }, 100).idle).toBe(0);
  });

  it('gives the shares of the span between two readings for the page and each named thread', () => {
    const before = {
      at: 1_000,
      renderers: new Map([[10, { runningMs: 0, waitingMs: 0 }]]),
      threads: { host: { runningMs: 50, waitingMs: 0 } },
    };
    const after = {
      at: 1_200,
      renderers: new Map([[10, { runningMs: 150, waitingMs: 40 }]]),
      threads: { host: { runningMs: 70, waitingMs: 20 } },
    };

    const spent = timeSpent(before, after);

    expect(spent.page.running).toBeCloseTo(0.75);
    expect(spent.page.waiting).toBeCloseTo(0.2);
    expect(spent.host.running).toBeCloseTo(0.1);
    expect(spent.host.waiting).toBeCloseTo(0.1);
  });

  it("takes the page's thread to be the renderer that ran the most, ignoring one started in between", () => {
    const before = new Map([
      [10, { runningMs: 0, waitingMs: 0 }],
      [11, { runningMs: 0, waitingMs: 0 }],
    ]);
    const after = new Map([
      [10, { runningMs: 5, waitingMs: 1 }],
      [11, { runningMs: 70, waitingMs: 20 }],
      [12, { runningMs: 500, waitingMs: 0 }],
    ]);

    const shares = pageTimeShares(before, after, 100);

    expect(shares.running).toBeCloseTo(0.7);
    expect(shares.waiting).toBeCloseTo(0.2);
  });
});
