import { afterEach, describe, expect, it } from 'vitest';
import { interruptedMessage, mapServiceError } from '../../../electron/app/error-mapping';
import { ApiError, ConnectionInterruptedError, TimeoutError } from '../../../electron/services/api';
import { VisitRefusedError } from '../../../electron/services/visit';
import { SessionExpiredError } from '../../../electron/services/session';
import { setLanguage } from '../../../electron/shared/i18n';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';

afterEach(() => setLanguage('en'));

describe('the main process errors follow the screen language', () => {
  it('writes the mapped errors in German after setLanguage("de")', () => {
    setLanguage('de');
    expect(mapServiceError(new SessionExpiredError())?.message).toBe(
      'Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an, um fortzufahren.',
    );
    expect(mapServiceError(new ApiError(403, 2, '', 'getGateway'))?.message).toBe('Das dürfen Sie nicht.');
    expect(
      mapServiceError(
        new ConnectionInterruptedError('executeCommand', 'reset', { cause: undefined, mayChange: true }),
      )?.message,
    ).toBe(interruptedMessage());
    expect(interruptedMessage()).toMatch(/^Die Verbindung brach nach dem Senden der Anfrage ab/);
  });

  it('writes a time-out made while German shows in German, with its figures', () => {
    setLanguage('de');
    expect(mapServiceError(new TimeoutError('getGatewayInfo', 12_000))?.message).toBe(
      'Keine Antwort von getGatewayInfo innerhalb von 12 s',
    );
  });

  it('passes the server’s own message through, whatever the language', () => {
    setLanguage('de');
    const error = mapServiceError(new ApiError(403, 2, 'Customer is locked', 'getCustomer'));
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: 'Customer is locked' });
  });

  it('keeps a refusal made in English in English after the language changes (it was made then)', () => {
    const refusal = new VisitRefusedError('No visit is open.');
    setLanguage('de');
    expect(mapServiceError(refusal)?.message).toBe('No visit is open.');
  });

  it('refuses an untrusted caller and an unknown channel in German', async () => {
    setLanguage('de');
    const folder = await mkdtemp(join(tmpdir(), 'fieldkit-errors-de-'));
    const services = await FieldKitServices.create({
      dataDir: folder,
      mode: 'electron',
      version: '1.2.3',
      credentials: { store: new MemoryStore(), keychain: 'os' },
      createSession: () => {
        throw new Error('not used');
      },
    });
    const router = createRouter<boolean>({
      handlers: services.handlers,
      isTrustedSender: (trusted) => trusted,
    });
    expect(await router.dispatch('app:version', undefined, false)).toEqual({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Dieser Aufrufer darf die Kanäle von Field Kit nicht verwenden.' },
    });
    expect(await router.dispatch('no:such', undefined, true)).toEqual({
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: 'Unbekannter Kanal.',
        details: [{ path: '', message: 'Kein Kanal namens "no:such"' }],
      },
    });
    await services.close();
    await rm(folder, { recursive: true, force: true });
  });
});
