import { afterEach, describe, expect, it } from 'vitest';
import {
  LOAD_RETRY_FIRST_MS,
  LOAD_RETRY_MAX_MS,
  LoadedValue,
  reloadEveryLoad,
  sessionLoadKey,
} from '../../../../../renderer/src/lib/state/loaded.svelte';
import type { IpcErrorShape, Result } from '../../../../../renderer/src/lib/wire-types';
import { ManualClock } from '../../../../helpers/manual-clock';
import { makeSessionSummary } from '../../../../helpers/factories';

const UNREACHABLE: IpcErrorShape = { code: 'NETWORK', message: 'The server refused the connection' };
const EXPIRED: IpcErrorShape = { code: 'SESSION_EXPIRED', message: 'Your session has expired.' };

/** A read whose answers the test hands out one at a time, counting the reads. */
function scriptedRead(answers: Result<string>[]) {
  const script = { reads: 0 };
  const read = (): Promise<Result<string>> => {
    script.reads += 1;
    return Promise.resolve(answers.shift() ?? { ok: true, value: 'later' });
  };
  return { script, read };
}

const opened: LoadedValue<string>[] = [];
afterEach(() => {
  for (const loaded of opened.splice(0)) loaded.dispose();
});

function open(
  read: () => Promise<Result<string>>,
  clock: ManualClock,
  retriesBy?: 'self' | 'technician',
): LoadedValue<string> {
  const loaded = new LoadedValue('the gateways', read, {
    timers: clock,
    ...(retriesBy ? { retriesBy } : {}),
  });
  opened.push(loaded);
  return loaded;
}

/** Lets the read's promise settle (the ManualClock runs timers synchronously, the read resolves after). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('LoadedValue', () => {
  it('keeps the failure, retries by itself on a doubling wait, and loads once the server answers', async () => {
    const clock = new ManualClock(1_000);
    const { script, read } = scriptedRead([
      { ok: false, error: UNREACHABLE },
      { ok: false, error: UNREACHABLE },
      { ok: true, value: 'rows' },
    ]);
    const loaded = open(read, clock);

    await loaded.load();
    expect(loaded.state.status).toBe('failed');
    expect(loaded.state.error).toEqual(UNREACHABLE);
    expect(loaded.state.retryAt).toBe(1_000 + LOAD_RETRY_FIRST_MS);

    clock.advance(LOAD_RETRY_FIRST_MS);
    await settle();
    expect(script.reads).toBe(2);
    expect(loaded.state.failures).toBe(2);
    expect(loaded.state.retryAt).toBe(clock.now() + 2 * LOAD_RETRY_FIRST_MS);

    clock.advance(2 * LOAD_RETRY_FIRST_MS);
    await settle();
    expect(loaded.value).toBe('rows');
    expect(loaded.state.status).toBe('loaded');
    expect(loaded.state.error).toBeNull();
    expect(loaded.state.retryAt).toBeNull();
  });

  it('never waits longer than LOAD_RETRY_MAX_MS between tries, and goes on while the view is open', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead(
      Array.from({ length: 20 }, () => ({ ok: false, error: UNREACHABLE })),
    );
    const loaded = open(read, clock);
    await loaded.load();
    for (let tries = 0; tries < 12; tries++) {
      clock.advance(LOAD_RETRY_MAX_MS);
      await settle();
    }
    expect(script.reads).toBe(13);
    expect(loaded.state.retryAt).toBe(clock.now() + LOAD_RETRY_MAX_MS);
  });

  it('waits for a new session, not a timer, when the session has expired; the new session reloads it', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead([{ ok: false, error: EXPIRED }]);
    const loaded = open(read, clock);
    await loaded.load();
    expect(loaded.state.retryAt).toBeNull();
    expect(loaded.state.waitsForSomeone).toBe(true);
    clock.advance(10 * LOAD_RETRY_MAX_MS);
    expect(script.reads).toBe(1);

    reloadEveryLoad();
    await settle();
    expect(script.reads).toBe(2);
    expect(loaded.value).toBe('later');
  });

  it('Retry loads at once and starts the backoff over', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead([
      { ok: false, error: UNREACHABLE },
      { ok: false, error: UNREACHABLE },
      { ok: false, error: UNREACHABLE },
    ]);
    const loaded = open(read, clock);
    await loaded.load();
    clock.advance(LOAD_RETRY_FIRST_MS);
    await settle();
    expect(loaded.state.failures).toBe(2);

    loaded.state.retry();
    await settle();
    expect(script.reads).toBe(3);
    expect(loaded.state.failures).toBe(1);
    expect(loaded.state.retryAt).toBe(clock.now() + LOAD_RETRY_FIRST_MS);
  });

  it('keeps the last good value on screen while a reload fails', async () => {
    const clock = new ManualClock();
    const { read } = scriptedRead([
      { ok: true, value: 'rows' },
      { ok: false, error: UNREACHABLE },
    ]);
    const loaded = open(read, clock);
    await loaded.load();
    await loaded.load();
    expect(loaded.value).toBe('rows');
    expect(loaded.state.hasFailed).toBe(true);
  });

  it('stops retrying and ignores session changes once disposed', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead([{ ok: false, error: UNREACHABLE }]);
    const loaded = open(read, clock);
    await loaded.load();
    loaded.dispose();
    clock.advance(LOAD_RETRY_MAX_MS);
    reloadEveryLoad();
    await settle();
    expect(script.reads).toBe(1);
  });

  it('does not load on a session change a view that never started loading', async () => {
    const { script, read } = scriptedRead([]);
    open(read, new ManualClock());
    reloadEveryLoad();
    await settle();
    expect(script.reads).toBe(0);
  });
});

describe('LoadedValue retried by the technician (a read made of gateway commands)', () => {
  it('schedules no retry after a failure a later try may cure, and says Retry is how to try again', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead([{ ok: false, error: UNREACHABLE }]);
    const loaded = open(read, clock, 'technician');
    await loaded.load();
    expect(loaded.state.error).toEqual(UNREACHABLE);
    expect(loaded.state.retryAt).toBeNull();
    expect(loaded.state.isRetriedByHand).toBe(true);
    clock.advance(10 * LOAD_RETRY_MAX_MS);
    await settle();
    expect(script.reads).toBe(1);

    loaded.state.retry();
    await settle();
    expect(script.reads).toBe(2);
    expect(loaded.value).toBe('later');
    expect(loaded.state.isRetriedByHand).toBe(false);
  });

  it('still reloads at once when the session changes or the server answers again', async () => {
    const clock = new ManualClock();
    const { script, read } = scriptedRead([{ ok: false, error: UNREACHABLE }]);
    const loaded = open(read, clock, 'technician');
    await loaded.load();
    reloadEveryLoad();
    await settle();
    expect(script.reads).toBe(2);
    expect(loaded.value).toBe('later');
    expect(loaded.state.hasFailed).toBe(false);
  });

  it('does not tell the technician to press Retry for a failure that waits for a new session', async () => {
    const { read } = scriptedRead([{ ok: false, error: EXPIRED }]);
    const loaded = open(read, new ManualClock(), 'technician');
    await loaded.load();
    expect(loaded.state.waitsForSomeone).toBe(true);
    expect(loaded.state.isRetriedByHand).toBe(false);
  });

  it('is never retried by hand when it retries by itself', async () => {
    const { read } = scriptedRead([{ ok: false, error: UNREACHABLE }]);
    const loaded = open(read, new ManualClock());
    await loaded.load();
    expect(loaded.state.isRetriedByHand).toBe(false);
  });
});

describe('sessionLoadKey', () => {
  it('changes with the account and comes back when an expired session is renewed', () => {
    const active = makeSessionSummary({ state: 'active' });
    expect(sessionLoadKey(active)).not.toBeNull();
    expect(sessionLoadKey({ ...active, state: 'expired' })).toBeNull();
    expect(sessionLoadKey({ ...active, state: 'refreshing' })).toBe(sessionLoadKey(active));
    expect(sessionLoadKey({ ...active, userId: 'someone-else' })).not.toBe(sessionLoadKey(active));
    expect(sessionLoadKey(null)).toBeNull();
  });
});
