import { join } from 'node:path';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import type { CommissioningOptions } from '../../../electron/app/domains/engines';
import type { OpenedCredentialStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';

/**
 * The app's services as main builds them over `folder` and `credentials` (with its terminals when asked), and a
 * `dispatch` that calls them as the renderer would. Starting it again over the same folder is a restart.
 */
export async function startAppServices(
  folder: string,
  credentials: OpenedCredentialStore,
  options: { terminals?: boolean; commissioning?: CommissioningOptions } = {},
) {
  const services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.0.0',
    credentials,
    createSession: createDefaultServerSession,
    ...(options.commissioning ? { commissioning: options.commissioning } : {}),
  });
  if (options.terminals) {
    services.attachTerminals({
      dataDir: folder,
      logsDir: join(folder, 'logs'),
      credentials: credentials.store,
    });
  }
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  return { services, dispatch: (channel: string, input?: unknown) => router.dispatch(channel, input, null) };
}
