import ssh2 from 'ssh2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostKeyChangedError } from '../../../electron/services/ssh/host-key-errors';
import { createSshWorld, type SshWorld } from '../../../simulator/ssh/ssh-world';
import { createServiceHarness, readUntil, runFlood, waitForState, type ServiceHarness } from './ssh-fixtures';

const GATEWAY = {
  id: 'gw-0016c001f1500001',
  hostname: 'kona-roof',
  bspVersion: '7.1.2',
  rootPassword: 'label-Pa55',
};
const PROMPT = `root@${GATEWAY.hostname}:~# `;

let world: SshWorld;
let harness: ServiceHarness;

beforeEach(async () => {
  world = await createSshWorld({
    seed: 'reverse-ssh-test',
    relayUser: 'relay',
    relayPassword: 'relay-secret',
    gateways: [GATEWAY],
  });
  harness = await createServiceHarness(world.tunnels);
});

afterEach(async () => {
  await harness.cleanup();
  await world.close();
});

function openReverse() {
  return harness.service.openReverse({
    gatewayId: GATEWAY.id,
    relay: world.relay,
    rootPassword: GATEWAY.rootPassword,
    cols: 100,
    rows: 30,
  });
}

function relayRefusesForward(port: number): Promise<boolean> {
  const client = new ssh2.Client();
  client.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    client.once('ready', () =>
      client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) => {
        stream?.destroy();
        client.end();
        resolve(error !== undefined);
      }),
    );
    client.once('error', reject);
    client.connect({ ...world.relay, hostVerifier: () => true });
  });
}

describe('reverse SSH through the simulator relay', () => {
  it('opens a root shell on the gateway and shows the answer to uname -a', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    session.write('uname -a\r');
    const output = await readUntil(session, /Linux .*\r\n/);
    expect(output).toMatch(new RegExp(`Linux ${GATEWAY.hostname}`));
    expect(session.state).toBe('open');
  });

  it('sends reverseSsh with the relay, a relay port and the documented options', async () => {
    await openReverse();
    const sent = harness.commands.find((command) => command.command === 'reverseSsh');
    expect(sent?.body).toMatchObject({
      sshHost: '127.0.0.1',
      sshPort: world.relay.port,
      username: 'relay',
      password: 'relay-secret',
      options: '-o ServerAliveInterval=30 -o ServerAliveCountMax=3',
    });
    expect(world.tunnelPorts()).toEqual([sent?.body.sshRevPort]);
  });

  it('trusts both host keys on first use and reports their fingerprints', async () => {
    const session = await openReverse();
    expect(session.hostKeys).toEqual([
      expect.objectContaining({
        keyId: `127.0.0.1:${world.relay.port}`,
        fingerprint: world.relayHostKey.fingerprint,
        isNew: true,
      }),
      expect.objectContaining({
        keyId: `gateway:${GATEWAY.id}`,
        fingerprint: world.gatewayHostKey(GATEWAY.id).fingerprint,
        isNew: true,
      }),
    ]);
  });

  it('refuses a gateway whose host key changed, and connects after the key is replaced', async () => {
    const stale = 'SHA256:' + 'A'.repeat(43);
    await harness.knownHosts.replace(`gateway:${GATEWAY.id}`, stale);
    const refused = await openReverse().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostKeyChangedError);
    expect(refused).toMatchObject({
      keyId: `gateway:${GATEWAY.id}`,
      expected: stale,
      actual: world.gatewayHostKey(GATEWAY.id).fingerprint,
    });
    await harness.service.replaceHostKey(`gateway:${GATEWAY.id}`, (refused as HostKeyChangedError).actual);
    const session = await openReverse();
    expect(session.state).toBe('open');
  });

  it('notices a dropped relay connection and reconnects', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    world.dropRelayConnections();
    const reason = await waitForState(session, 'failed');
    expect(reason).toMatch(/relay|gateway/);
    await session.reconnect();
    expect(session.state).toBe('open');
    session.write('hostname\r');
    await readUntil(session, `${GATEWAY.hostname}\r\n`);
  });

  it('sends stopReverseSsh on close and the relay no longer forwards to the tunnel', async () => {
    const session = await openReverse();
    const port = harness.commands.find((command) => command.command === 'reverseSsh')?.body
      .sshRevPort as number;
    await session.close();
    expect(harness.commands.map((command) => command.command)).toEqual(['reverseSsh', 'stopReverseSsh']);
    expect(session.state).toBe('closed');
    expect(await relayRefusesForward(port)).toBe(true);
  });

  it('closes the session when the remote shell exits', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    session.write('exit\r');
    expect(await waitForState(session, 'closed')).toMatch(/exited \(code 0\)/);
  });
});

describe('flow control over reverse SSH', () => {
  it('delivers a 5 MB flood complete while the renderer acknowledges slowly', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const flood = await runFlood(session, 5, { acknowledgeEveryMs: 5 });
    expect(flood.bodyBytes).toBe(5_000_000);
    expect(flood.receivedSha256).toBe(flood.announcedSha256);
  });

  it('never lets the renderer fall more than one packet behind the high watermark', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const flood = await runFlood(session, 2, { acknowledgeEveryMs: 20 });
    expect(flood.maxUnacknowledged).toBeLessThan(100_000 + 64 * 1024);
  });
});
