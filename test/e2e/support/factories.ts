import type { Profile, SessionSummary } from '../../../electron/shared/ipc/schemas';
import { makeSessionSummary } from '../../helpers/factories';

/** A demo profile like the one `npm start` preselects, with two public demo accounts. */
export function buildDemoProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'demo',
    name: 'Demo network server',
    baseUrl: 'http://127.0.0.1:9',
    isDemo: true,
    demoAccounts: [
      { username: 'tech@demo.example', password: 'demo-tech-password', role: 'CUSTOMER_USER' },
      { username: 'provider@demo.example', password: 'demo-provider-password', role: 'PROVIDER_USER' },
    ],
    ...overrides,
  };
}

/** A non-demo company profile. */
export function buildProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: 'acme',
    name: 'ACME network',
    baseUrl: 'https://oam.acme.example',
    username: 'field@acme.example',
    isDemo: false,
    ...overrides,
  };
}

/** A signed-in session of the demo profile's technician whose access token runs for another `secondsLeft` seconds. */
export function buildSessionSummary(
  overrides: Partial<SessionSummary> = {},
  secondsLeft = 300,
): SessionSummary {
  return makeSessionSummary({
    username: 'tech@demo.example',
    accessExpiresAt: Date.now() + secondsLeft * 1000,
    ...overrides,
  });
}
