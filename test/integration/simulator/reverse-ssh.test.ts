import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { makeReverseSshRequest } from '../../helpers/factories';
import { rawClient } from './http-client';

/** A TCP port that was free a moment ago (listen on 0, read the port, close). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('reverse SSH through the built-in relay', () => {
  let simulator: RunningSimulator;
  let client: ReturnType<typeof rawClient>;
  let token: string;

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      ssh: true,
      gateways: 6,
      devices: 6,
      rebootMs: 60_000,
    });
    client = rawClient(simulator);
    token = (await client.login('provider@fieldkit.demo', 'demo-provider')).token;
  });
  afterAll(() => simulator.close());

  const onlineGateway = (position: number) =>
    simulator.fixture.gateways.filter((gateway) => gateway.initialStatus === 'ONLINE')[position]!;
  const reverseSsh = (gatewayId: string, sshRevPort: number) =>
    client.post(
      `/api/gateway/${gatewayId}/command/reverseSsh`,
      {
        options: '',
        sshRevPort,
        // The fixture's relay block is what a caller of --print-fixture or a test reads.
        username: simulator.fixture.relay.username,
        password: simulator.fixture.relay.password,
        sshHost: simulator.fixture.relay.host,
        sshPort: simulator.fixture.relay.port!,
      },
      token,
    );

  it('opens a tunnel on the relay for reverseSsh and closes it for stopReverseSsh', async () => {
    const gateway = onlineGateway(0);
    const port = await freePort();
    expect((await reverseSsh(gateway.id, port)).status).toBe(200);
    expect(simulator.sshWorld!.tunnelPorts()).toContain(port);
    expect((await client.post(`/api/gateway/${gateway.id}/command/stopReverseSsh`, {}, token)).status).toBe(
      200,
    );
    expect(simulator.sshWorld!.tunnelPorts()).not.toContain(port);
  });

  it('drops the tunnel when the gateway reboots', async () => {
    const gateway = onlineGateway(2);
    const port = await freePort();
    expect((await reverseSsh(gateway.id, port)).status).toBe(200);
    expect((await client.post(`/api/gateway/${gateway.id}/command/reboot`, {}, token)).status).toBe(200);
    expect(simulator.sshWorld!.tunnelPorts()).not.toContain(port);
  });

  it('answers 400 with the relay message when the relay refuses the password', async () => {
    const answer = await client.post<{ message: string }>(
      `/api/gateway/${onlineGateway(1).id}/command/reverseSsh`,
      makeReverseSshRequest({
        sshRevPort: await freePort(),
        password: 'wrong',
        sshPort: simulator.relay!.port,
      }),
      token,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/Reverse SSH failed/);
  });
});
