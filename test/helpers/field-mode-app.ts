import { FieldKitServices } from '../../electron/app';
import type { FieldKitServicesOptions } from '../../electron/app/field-kit-services';
import { MemoryStore } from '../../electron/services/credentials';
import { createRouter } from '../../electron/shared/ipc/router';

/** A channel's answer as the page reads it. */
export interface RouterAnswer {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string; details?: unknown };
}

/**
 * The app as the page calls it, with nobody signed in (field mode): keychain in memory, and a server session that
 * must never be built. `invoke` goes through the router, schemas and error mapping included. Close `services`.
 */
export async function startFieldModeApp(
  options: Pick<FieldKitServicesOptions, 'dataDir'> & Partial<FieldKitServicesOptions>,
): Promise<{ services: FieldKitServices; invoke(channel: string, input?: unknown): Promise<RouterAnswer> }> {
  const services = await FieldKitServices.create({
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => {
      throw new Error('field mode must not build a session');
    },
    ...options,
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  return {
    services,
    invoke: (channel, input) => router.dispatch(channel, input, null) as Promise<RouterAnswer>,
  };
}
