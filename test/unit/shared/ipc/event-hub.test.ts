import { describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../../../electron/shared/ipc/event-hub';

describe('EventHub', () => {
  it('delivers a valid event to its listener and to any-listeners', () => {
    const hub = new EventHub();
    const onChanged = vi.fn();
    const onAny = vi.fn();
    hub.on('session:changed', onChanged);
    hub.onAny(onAny);
    hub.emit('session:changed', null);
    expect(onChanged).toHaveBeenCalledWith(null);
    expect(onAny).toHaveBeenCalledWith('session:changed', null);
  });

  it('throws at the emitter when a payload breaks its schema', () => {
    const hub = new EventHub();
    // eslint-disable-next-line no-restricted-syntax -- a payload its type refuses is what the hub must catch
    expect(() => hub.emit('session:changed', { profileId: 1 } as never)).toThrow();
  });

  it('keeps delivering after one listener throws', () => {
    const hub = new EventHub();
    const second = vi.fn();
    hub.onAny(() => {
      throw new Error('broken transport');
    });
    hub.onAny(second);
    hub.emit('app:notice', { code: 'X', message: 'm', at: 1 });
    expect(second).toHaveBeenCalled();
  });

  it('stops delivering after unsubscribe', () => {
    const hub = new EventHub();
    const listener = vi.fn();
    const off = hub.on('session:changed', listener);
    off();
    hub.emit('session:changed', null);
    expect(listener).not.toHaveBeenCalled();
  });
});
