import { afterEach, describe, expect, it } from 'vitest';
import { TUNNEL_CANCELLED_MESSAGE } from '../../../simulator/ssh/reverse-tunnel';
import { createSshWorld, type SshWorld } from '../../../simulator/ssh/ssh-world';
import type { ReverseTunnels } from '../../../simulator/tunnels';
import { makeReverseSshRequest } from '../../helpers/factories';
import { createTestFleet, healthyGateway, TEST_COMMAND_TIMEOUT_MS } from '../../unit/simulator/world-factory';

let world: SshWorld | undefined;

afterEach(async () => {
  await world?.close();
  world = undefined;
});

function startWorld(gatewayId: string): Promise<SshWorld> {
  return createSshWorld({
    seed: 'simulator-tunnels-test',
    relayUser: 'relay',
    relayPassword: 'relay-secret',
    gateways: [{ id: gatewayId, hostname: 'kona-roof', bspVersion: '7.1.2', rootPassword: 'label-Pa55' }],
  });
}

function tunnelRequest(started: SshWorld, sshRevPort: number) {
  return makeReverseSshRequest({ sshPort: started.relay.port, sshRevPort, password: 'relay-secret' });
}

describe('the simulated gateways stopping their reverse tunnels', () => {
  it('cancels a tunnel still opening when stopReverseSsh arrives, and leaves none on the relay', async () => {
    world = await startWorld('gw-0016c001f1500001');
    const opening = world.tunnels.openReverseTunnel('gw-0016c001f1500001', tunnelRequest(world, 41_300));
    await world.tunnels.closeTunnels('gw-0016c001f1500001');
    await expect(opening).rejects.toThrow(TUNNEL_CANCELLED_MESSAGE);
    expect(world.tunnelPorts()).toEqual([]);
  });

  it('stops a tunnel whose reverseSsh already answered 408 but was still opening', async () => {
    const probe = createTestFleet();
    const gatewayId = healthyGateway(probe.tenant).id;
    const started = await startWorld(gatewayId);
    world = started;
    const openings: Array<Promise<void>> = [];
    const tunnels: ReverseTunnels = {
      openReverseTunnel: (id, request) => {
        const opening = started.tunnels.openReverseTunnel(id, request);
        openings.push(opening);
        return opening;
      },
      closeTunnels: (id) => started.tunnels.closeTunnels(id),
    };
    const { clock, tenant, run } = createTestFleet({ tunnels });
    const gateway = healthyGateway(tenant);
    const asked = run(gateway, 'reverseSsh', tunnelRequest(started, 41_301)).catch((error: unknown) => error);
    await Promise.resolve();
    clock.advance(TEST_COMMAND_TIMEOUT_MS);
    expect(await asked).toMatchObject({ status: 408 });
    await run(gateway, 'stopReverseSsh');
    await Promise.allSettled(openings);
    expect(started.tunnelPorts()).toEqual([]);
  });
});
