import { afterEach, describe, expect, it } from 'vitest';
import { useClock } from '../../../../../renderer/src/lib/clock';
import { IpcClient } from '../../../../../renderer/src/lib/ipc';
import { describeServerReach } from '../../../../../renderer/src/lib/server-reach';
import { BACK_NOTICE_MS, FieldModeState } from '../../../../../renderer/src/lib/state/field-mode.svelte';
import { createPreloadTransport, type Bridge } from '../../../../../renderer/src/lib/transport';
import { ManualClock } from '../../../../helpers/manual-clock';

const PROFILES = [{ id: 'p1', name: 'Acme OAM' }];

/** A client over a bridge whose main pushes `server:status` when told. */
function mainPushingStatus() {
  const listeners = new Set<(payload: unknown) => void>();
  const bridge: Bridge = {
    invoke: async () => ({ ok: true, value: null }),
    on: (_event, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    client: new IpcClient(createPreloadTransport(bridge)),
    push: (outcome: 'resumed' | 'reachable' | 'unreachable', at: number) =>
      listeners.forEach((listener) => listener({ profileId: 'p1', outcome, at })),
  };
}

let restoreClock: (() => void) | undefined;
afterEach(() => restoreClock?.());

/** The words the signed-in shell shows for the field mode state's last status. */
function signedInWords(state: FieldModeState): string | null {
  return describeServerReach(state.server, PROFILES, true, state.isBackNoticeShown)?.headline ?? null;
}

describe('FieldModeState', () => {
  it('says the server is back for a few seconds after it returns, then says nothing', () => {
    const clock = new ManualClock(0);
    restoreClock = useClock(clock);
    const main = mainPushingStatus();
    const state = new FieldModeState(main.client);
    main.push('unreachable', 0);
    expect(signedInWords(state)).toBe('Acme OAM does not answer');
    main.push('resumed', 1_000);
    expect(signedInWords(state)).toBe('Acme OAM answers');
    clock.advance(BACK_NOTICE_MS);
    expect(signedInWords(state)).toBeNull();
    state.dispose();
  });

  it('never says "answers" for an answer that is old news, and says "does not answer" at once', () => {
    const clock = new ManualClock(0);
    restoreClock = useClock(clock);
    const main = mainPushingStatus();
    const state = new FieldModeState(main.client);
    // Found answering with no absence before (a check while signed in): nothing to tell.
    main.push('resumed', 0);
    expect(signedInWords(state)).toBeNull();
    main.push('unreachable', 500);
    main.push('resumed', 1_000);
    main.push('unreachable', 2_000);
    expect(signedInWords(state)).toBe('Acme OAM does not answer');
    state.dispose();
  });

  it('keeps offering sign-in while the server answers and nobody is signed in', () => {
    const clock = new ManualClock(0);
    restoreClock = useClock(clock);
    const main = mainPushingStatus();
    const state = new FieldModeState(main.client);
    main.push('reachable', 0);
    clock.advance(60_000);
    expect(describeServerReach(state.server, PROFILES, false, state.isBackNoticeShown)?.detail).toBe(
      'Sign in for live data.',
    );
    state.dispose();
  });
});
