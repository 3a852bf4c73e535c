import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSshWorldProcess, type SshWorldProcess } from '../../../simulator/ssh/world-process';
import { createServiceHarness, readUntil, type ServiceHarness } from './ssh-fixtures';

const GATEWAY = { id: 'gw-process', hostname: 'kona-child', bspVersion: '7.1.2', rootPassword: 'child-root' };

let world: SshWorldProcess;
let harness: ServiceHarness;

beforeAll(async () => {
  world = await startSshWorldProcess({
    seed: 'world-process-test',
    relayUser: 'relay',
    relayPassword: 'relay-secret',
    gateways: [GATEWAY],
  });
  harness = await createServiceHarness(world.tunnels);
});

afterAll(async () => {
  await harness.cleanup();
  await world.close();
});

describe('an SSH world in a child process', () => {
  it('serves a reverse-SSH session like the in-process one', async () => {
    const session = await harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      rootPassword: GATEWAY.rootPassword,
      cols: 80,
      rows: 24,
    });
    await readUntil(session, `root@${GATEWAY.hostname}:~# `);
    session.write('hostname\r');
    expect(await readUntil(session, `${GATEWAY.hostname}\r\n`)).toContain(GATEWAY.hostname);
  });

  it('passes the reason of a refused tunnel back from the child', async () => {
    await expect(
      world.tunnels.openReverseTunnel(GATEWAY.id, {
        sshHost: '192.0.2.1',
        sshPort: 22,
        sshRevPort: 40_000,
        username: 'relay',
        password: 'relay-secret',
        options: '',
      }),
    ).rejects.toThrow(/loopback/);
  });
});
