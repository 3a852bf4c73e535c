import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LaptopIntegrationTester,
  describeMqttError,
  describeNetworkError,
} from '../../../../electron/services/integrations';
import { setLanguage } from '../../../../electron/shared/i18n';

// The laptop test is written in the language the app has when the test runs (main follows the screen).

afterEach(() => setLanguage('en'));

/** A loopback port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('laptop test in another language', () => {
  it('says in German that nothing accepts connections on the port, with the address as given', async () => {
    setLanguage('de');
    const port = await closedPort();
    const outcome = await new LaptopIntegrationTester().testHttp({ host: 'http://127.0.0.1', port });
    expect(outcome.ok).toBe(false);
    expect(outcome.summary).toBe(
      `Dieser Laptop konnte den HTTP-Server unter http://127.0.0.1:${port}/ nicht erreichen: ` +
        'an diesem Port nimmt nichts Verbindungen an (Verbindung abgelehnt)',
    );
    expect(outcome.steps).toEqual([
      `POST http://127.0.0.1:${port}/: an diesem Port nimmt nichts Verbindungen an (Verbindung abgelehnt)`,
    ]);
  });

  it('writes broker refusals and waits in French, and English again after switching back', () => {
    setLanguage('fr');
    const refused = Object.assign(new Error('Connection refused: Not authorized'), { code: 5 });
    expect(describeMqttError(refused, 10)).toBe(
      "le broker a refusé la connexion comme non autorisée : vérifiez le jeton (nom d'utilisateur) et le mot de passe",
    );
    expect(describeNetworkError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), 12)).toBe(
      'pas de réponse en 12 s',
    );
    setLanguage('en');
    expect(describeNetworkError(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), 12)).toBe(
      'no answer within 12 s',
    );
  });

  it('passes on an error it has no words for as the system wrote it', () => {
    setLanguage('es');
    expect(describeNetworkError(Object.assign(new Error('socket hang up'), { code: 'EWEIRD' }), 10)).toBe(
      'socket hang up',
    );
  });
});
