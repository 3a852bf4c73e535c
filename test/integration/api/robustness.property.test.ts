// Property tests: whatever a client sends — any JSON body, broken JSON, any query string, any path segment —
// the simulator answers with a client error or success, never a 5xx.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  COMMAND_NAMES,
  ENDPOINT_NAMES,
  endpoints,
  fillPath,
  gatewayCommands,
} from '../../../electron/shared/api';
import { loginAs, startTestSimulator } from '../../helpers/simulator';

const simulator = await startTestSimulator({ seed: 3, commandTimeoutMs: 50, rebootMs: 200, upgradeMs: 200 });
afterAll(() => simulator.close());
const provider = await loginAs(simulator, 'provider');
const token = provider.accessToken!;
const gatewayIds = simulator.fixture.gateways.map((gateway) => gateway.id);

const postPaths = [
  ...ENDPOINT_NAMES.filter((name) => endpoints[name].method === 'POST' && name !== 'gatewayCommand').map(
    (name) => endpoints[name].path,
  ),
  ...COMMAND_NAMES.map((name) => `/api/gateway/{gatewayId}/command/${gatewayCommands[name].path}`),
];
const getPaths = ENDPOINT_NAMES.filter((name) => endpoints[name].method === 'GET').map(
  (name) => endpoints[name].path,
);

/** Fills every `{name}` with a real id or an arbitrary string. */
const pathArbitrary = (template: string) =>
  fc
    .record({
      real: fc.boolean(),
      arbitrary: fc.string({ minLength: 1, maxLength: 40 }),
      gateway: fc.constantFrom(...gatewayIds),
    })
    .map(({ real, arbitrary, gateway }) =>
      fillPath(
        template,
        new Proxy({} as Record<string, string>, {
          get: (_, name) =>
            real
              ? name === 'gatewayId'
                ? gateway
                : name === 'providerId'
                  ? simulator.fixture.providerId
                  : arbitrary
              : arbitrary,
        }),
      ),
    );

async function send(method: string, path: string, body?: string, contentType = 'application/json') {
  const response = await fetch(simulator.url + path, {
    method,
    headers: { 'X-Authorization': `Bearer ${token}`, 'Content-Type': contentType },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

const RUNS = 150;

describe('the simulator never answers 5xx', () => {
  it('to arbitrary JSON bodies on every POST endpoint and command', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...postPaths).chain((template) => pathArbitrary(template)),
        fc.jsonValue(),
        fc.constantFrom('application/json', 'text/plain'),
        async (path, body, contentType) => {
          expect(await send('POST', path, JSON.stringify(body), contentType)).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('to malformed JSON on every POST endpoint and command', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...postPaths).chain(pathArbitrary),
        fc.string(),
        async (path, body) => {
          expect(await send('POST', path, body)).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('to arbitrary query strings and path segments on every GET endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...getPaths).chain(pathArbitrary),
        fc.dictionary(
          fc.string({ maxLength: 20 }),
          fc.oneof(fc.string(), fc.integer().map(String), fc.constant('true')),
        ),
        async (path, query) => {
          const search = new URLSearchParams(query).toString();
          expect(await send('GET', `${path}${search ? `?${search}` : ''}`)).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
