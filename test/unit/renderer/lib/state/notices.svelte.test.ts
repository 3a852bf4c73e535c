import { describe, expect, it } from 'vitest';
import { IpcClient } from '../../../../../renderer/src/lib/ipc';
import { NoticesState } from '../../../../../renderer/src/lib/state/notices.svelte';
import { createPreloadTransport, type Bridge } from '../../../../../renderer/src/lib/transport';
import type { Notice } from '../../../../../renderer/src/lib/wire-types';

const MOVED: Notice = {
  code: 'PROFILES_MOVED_ASIDE',
  message: 'A damaged profiles file was set aside.',
  at: 1,
};
const KEYCHAIN: Notice = { code: 'KEYCHAIN_SESSION_ONLY', message: 'No keychain answered.', at: 2 };

/** A client over a bridge holding `held` notices in main, with a way to raise one as an event. */
function mainHolding(held: Notice[]) {
  const listeners = new Set<(payload: unknown) => void>();
  const bridge: Bridge = {
    invoke: async () => ({ ok: true, value: { notices: held } }),
    on: (_event, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    client: new IpcClient(createPreloadTransport(bridge)),
    raise: (notice: Notice) => listeners.forEach((listener) => listener(notice)),
    listeners,
  };
}

describe('NoticesState', () => {
  it('shows the notices main held before the page listened and those raised after, each once', async () => {
    const main = mainHolding([MOVED]);
    const notices = new NoticesState(main.client);
    main.raise(KEYCHAIN);
    await notices.load();
    main.raise(KEYCHAIN);
    expect(notices.notices).toEqual([KEYCHAIN, MOVED]);
  });

  it('hides a dismissed notice and stops listening once disposed', async () => {
    const main = mainHolding([MOVED, KEYCHAIN]);
    const notices = new NoticesState(main.client);
    await notices.load();
    notices.dismiss(notices.notices[0]!);
    expect(notices.notices).toEqual([KEYCHAIN]);
    notices.dispose();
    main.raise({ ...MOVED, at: 3 });
    expect(notices.notices).toEqual([KEYCHAIN]);
  });
});
