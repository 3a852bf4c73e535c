import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { rawClient } from './http-client';

const COMMAND_TIMEOUT_MS = 300;

describe('gateway commands over HTTP', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let acmeToken: string;

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      rebootMs: 60_000,
    });
    client = rawClient(simulator);
    acmeToken = (await client.login('tech@acme.demo', 'demo-tech')).token;
  });
  afterAll(() => simulator.close());

  const acmeGateways = () => {
    const acme = simulator.fixture.customers.find((customer) => customer.name === 'Acme Water')!;
    return simulator.fixture.gateways.filter(
      (gateway) => gateway.customerId === acme.id && gateway.initialStatus === 'ONLINE',
    );
  };
  const command = (gatewayId: string, name: string, body?: string) =>
    client.request('POST', `/api/gateway/${gatewayId}/command/${name}`, { token: acmeToken, body });

  it('answers 408 with errorCode 2 after the command timeout when the gateway is rebooting', async () => {
    const gateway = acmeGateways()[0]!;
    expect((await command(gateway.id, 'reboot', '{}')).status).toBe(200);
    const started = performance.now();
    const answer = await command(gateway.id, 'getWmApns', '{}');
    expect(answer).toMatchObject({ status: 408, body: { status: 408, errorCode: 2 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 20);
  });

  it('answers a command with the gateway state', async () => {
    const answer = await command(acmeGateways()[1]!.id, 'getConnectivityTypes', '{}');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(2);
  });

  it('takes resetRadioStatisticsCounters with no body at all', async () => {
    expect((await command(acmeGateways()[1]!.id, 'resetRadioStatisticsCounters')).status).toBe(200);
  });

  it('answers 400, never 500, to a malformed JSON body', async () => {
    const answer = await command(acmeGateways()[1]!.id, 'ping', '{"packetsCount": 4,');
    expect(answer).toMatchObject({ status: 400, body: { status: 400, errorCode: 31 } });
  });

  it('answers 400 naming the command field that breaks a rule', async () => {
    const answer = await command(acmeGateways()[1]!.id, 'createBackup', '{"description": ""}');
    expect(answer).toMatchObject({ status: 400, body: { message: expect.stringContaining('description') } });
  });

  it('answers 404 for an unknown gateway and 403 for a gateway of another customer', async () => {
    const globex = simulator.fixture.customers.find((customer) => customer.name === 'Globex Energy')!;
    const foreign = simulator.fixture.gateways.find((gateway) => gateway.customerId === globex.id)!;
    expect(await command('00000000-0000-4000-8000-000000000000', 'getBackups', '{}')).toMatchObject({
      status: 404,
    });
    expect(await command(foreign.id, 'getBackups', '{}')).toMatchObject({
      status: 403,
      body: { errorCode: 20 },
    });
  });

  it('answers 400 for a command that is not in the catalogue', async () => {
    expect((await command(acmeGateways()[1]!.id, 'formatDisk', '{}')).status).toBe(400);
  });
});
