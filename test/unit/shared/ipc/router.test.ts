import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, contract } from '../../../../electron/shared/ipc/contract';
import { IpcError } from '../../../../electron/shared/ipc/result';
import { createRouter, type HandlerTable } from '../../../../electron/shared/ipc/router';
import { makeSessionSummary } from '../../../helpers/factories';

const SUMMARY = makeSessionSummary();

function isHandlerTable(table: Partial<HandlerTable>): table is HandlerTable {
  return CHANNELS.every((channel) => typeof table[channel] === 'function');
}

function buildHandlers(overrides: Partial<HandlerTable> = {}): HandlerTable {
  const unused = () => {
    throw new Error('not used in this test');
  };
  const table: Partial<HandlerTable> = {};
  for (const channel of CHANNELS) table[channel] = vi.fn(unused);
  if (!isHandlerTable(table)) throw new Error('A channel of the contract has no handler.');
  table['app:info'] = vi.fn(() => ({ version: '0.1.0', mode: 'browser' as const, keychain: 'os' as const }));
  return { ...table, ...overrides };
}

function buildRouter(overrides: Partial<HandlerTable> = {}, trusted = true) {
  const handlers = buildHandlers(overrides);
  const onInternalError = vi.fn();
  const router = createRouter<string>({
    handlers,
    isTrustedSender: () => trusted,
    onInternalError,
  });
  return { router, handlers, onInternalError };
}

describe('IPC router', () => {
  it('answers a valid call with the handler value', async () => {
    const { router } = buildRouter();
    await expect(router.dispatch('app:info', undefined, 'main-frame')).resolves.toEqual({
      ok: true,
      value: { version: '0.1.0', mode: 'browser', keychain: 'os' },
    });
  });

  it("hands the handler the transport's signal, which fires when the caller is gone", async () => {
    const seen: Array<AbortSignal | undefined> = [];
    const { router } = buildRouter({
      'app:info': (_input, context) => {
        seen.push(context.signal);
        return { version: '0.1.0', mode: 'browser', keychain: 'os' };
      },
    });
    const caller = new AbortController();
    await router.dispatch('app:info', undefined, 'main-frame', caller.signal);
    await router.dispatch('app:info', undefined, 'main-frame');
    caller.abort();
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[1]?.aborted).toBe(false);
  });

  it('rejects invalid input with every failing path and does not call the handler', async () => {
    const login = vi.fn();
    const { router } = buildRouter({ 'session:login': login });
    const result = await router.dispatch(
      'session:login',
      { profileId: 'p1', username: '', password: '', remember: 'forever' },
      'main-frame',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('INVALID_INPUT');
    const paths = (result.error.details as { path: string }[]).map((issue) => issue.path).sort();
    expect(paths).toEqual(['password', 'remember', 'username']);
    expect(login).not.toHaveBeenCalled();
  });

  it('refuses an untrusted sender with FORBIDDEN before parsing or calling anything', async () => {
    const { router, handlers } = buildRouter({}, false);
    const result = await router.dispatch('app:info', undefined, 'some-iframe');
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(handlers['app:info']).not.toHaveBeenCalled();
  });

  it('answers an unknown channel with INVALID_INPUT', async () => {
    const { router } = buildRouter();
    const result = await router.dispatch('fs:read', { path: '/etc/shadow' }, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('does not treat inherited object keys as channels', async () => {
    const { router } = buildRouter();
    const result = await router.dispatch('constructor', undefined, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('passes a thrown IpcError through with its code, message and details', async () => {
    const { router } = buildRouter({
      'profiles:delete': () => {
        throw new IpcError('NOT_FOUND', 'That server profile no longer exists.');
      },
    });
    const result = await router.dispatch('profiles:delete', { id: 'gone' }, 'main-frame');
    expect(result).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'That server profile no longer exists.' },
    });
  });

  it('hides an unexpected error behind a generic INTERNAL message without stack or secret', async () => {
    const secretError = new Error('refresh token eyJhbGciOi.secret leaked at /home/tech/.config');
    const { router, onInternalError } = buildRouter({
      'session:get': () => {
        throw secretError;
      },
    });
    const result = await router.dispatch('session:get', undefined, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    const text = JSON.stringify(result);
    expect(text).not.toContain('eyJhbGciOi');
    expect(text).not.toContain('at /');
    expect(onInternalError).toHaveBeenCalledWith('session:get', secretError);
  });

  it('maps domain errors through the transport mapper', async () => {
    class ApiError extends Error {}
    const router = createRouter<string>({
      handlers: buildHandlers({
        'api:call': () => {
          throw new ApiError('boom');
        },
      }),
      isTrustedSender: () => true,
      mapError: (error) =>
        error instanceof ApiError
          ? new IpcError('API_ERROR', 'The server refused.', { status: 400 })
          : undefined,
    });
    const result = await router.dispatch('api:call', { endpoint: 'listGateways' }, 'main-frame');
    expect(result).toEqual({
      ok: false,
      error: { code: 'API_ERROR', message: 'The server refused.', details: { status: 400 } },
    });
  });

  it('turns an output that breaks its schema into INTERNAL', async () => {
    const { router } = buildRouter({
      // eslint-disable-next-line no-restricted-syntax -- an output its type refuses is what the router must catch
      'session:get': () => ({ ...SUMMARY, accessToken: undefined, state: 'weird' }) as never,
    });
    const result = await router.dispatch('session:get', undefined, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('strips fields the output schema does not know, so a token added by mistake never crosses', async () => {
    const leaky = { ...SUMMARY, accessToken: 'eyJ.secret' };
    const { router } = buildRouter({ 'session:get': () => leaky });
    const result = await router.dispatch('session:get', undefined, 'main-frame');
    expect(JSON.stringify(result)).not.toContain('eyJ.secret');
    expect(result).toEqual({ ok: true, value: SUMMARY });
  });

  it('answers INVALID_INPUT, not a throw, for a channel whose toString is not a function', async () => {
    const { router } = buildRouter();
    const channel = JSON.parse('{"toString":1}') as unknown;
    const result = await router.dispatch(channel, {}, 'main-frame');
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: 'Unknown channel.' },
    });
  });

  it('answers every JSON value as a channel with an error and never rejects', async () => {
    const { router } = buildRouter();
    const channels: unknown[] = [
      null,
      1,
      true,
      [],
      ['app:info'],
      { valueOf: 1 },
      'x'.repeat(1_000_000),
      '__proto__',
    ];
    for (const channel of channels) {
      const result = await router.dispatch(channel, { toString: 1 }, 'main-frame');
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(JSON.stringify(result).length).toBeLessThan(1_000);
    }
  });

  it('answers INTERNAL for an answer nested 6,000 levels deep, which JSON.stringify cannot serialise', async () => {
    let deep: unknown = [];
    for (let level = 0; level < 6_000; level += 1) deep = [deep];
    const { router, onInternalError } = buildRouter({ 'api:call': () => ({ data: [], extra: deep }) });
    const result = await router.dispatch('api:call', { endpoint: 'listGateways' }, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(String(onInternalError.mock.calls[0]?.[1])).toMatch(/nested deeper than 128 levels/);
  });

  it('answers INTERNAL for an answer holding a cycle or a BigInt', async () => {
    const cycle: Record<string, unknown> = { name: 'gw' };
    cycle.self = cycle;
    for (const value of [cycle, { count: 10n }]) {
      const { router } = buildRouter({ 'api:call': () => value });
      const result = await router.dispatch('api:call', { endpoint: 'listGateways' }, 'main-frame');
      expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
      expect(() => JSON.stringify(result)).not.toThrow();
    }
  });

  it('still answers INTERNAL when the internal-error log itself throws', async () => {
    const router = createRouter<string>({
      handlers: buildHandlers({
        'api:call': () => {
          throw new Error('boom');
        },
      }),
      isTrustedSender: () => true,
      onInternalError: () => {
        throw new Error('the log is gone');
      },
    });
    const result = await router.dispatch('api:call', { endpoint: 'listGateways' }, 'main-frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('refuses to build when a channel has no handler', () => {
    const handlers = buildHandlers() as Partial<HandlerTable>;
    delete handlers['session:logout'];
    expect(() => createRouter({ handlers: handlers as HandlerTable, isTrustedSender: () => true })).toThrow(
      /missing \[session:logout\]/,
    );
  });

  it('refuses to build when a handler has no channel', () => {
    const handlers = { ...buildHandlers(), 'fs:read': () => null };
    expect(() => createRouter({ handlers, isTrustedSender: () => true })).toThrow(/extra \[fs:read\]/);
  });

  it('names every channel domain:verb', () => {
    for (const channel of Object.keys(contract)) expect(channel).toMatch(/^[a-z]+(-[a-z]+)*:[a-z-]+$/);
  });
});
