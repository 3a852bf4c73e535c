import ssh2 from 'ssh2';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintHostKey } from '../../../electron/services/ssh/known-hosts';
import { createSshWorld, type SshWorld } from '../../../simulator/ssh/ssh-world';
import { startOpenSshRelay, type OpenSshRelay } from '../../helpers/sshd';
import { createServiceHarness, readUntil, runFlood, waitForState, type ServiceHarness } from './ssh-fixtures';

const GATEWAY = {
  id: 'gw-0016c001f1500002',
  hostname: 'kona-mast',
  bspVersion: '6.4.0',
  rootPassword: 'label-Pa55',
};
const PROMPT = `root@${GATEWAY.hostname}:~# `;

let relay: OpenSshRelay;
let world: SshWorld;
let harness: ServiceHarness;

beforeAll(async () => {
  relay = await startOpenSshRelay();
});

afterAll(async () => {
  await relay.stop();
});

beforeEach(async () => {
  world = await createSshWorld({
    seed: 'openssh-relay-test',
    relayUser: 'unused',
    relayPassword: 'unused',
    gateways: [GATEWAY],
    tunnelClient: 'openssh',
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
    relay: { host: relay.host, port: relay.port, username: relay.username, password: relay.password },
    portRange: [relay.permittedPorts[0]!, relay.permittedPorts.at(-1)!],
    rootPassword: GATEWAY.rootPassword,
    cols: 120,
    rows: 40,
  });
}

/** Whether sshd refuses a local forward to 127.0.0.1:port (nothing listens there). */
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
    client.connect({
      host: relay.host,
      port: relay.port,
      username: relay.username,
      password: relay.password,
      hostVerifier: () => true,
    });
  });
}

describe('reverse SSH through a real OpenSSH sshd, tunnel opened by the real ssh -R', () => {
  it('opens a root shell on the gateway and shows the answer to uname -a', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    session.write('uname -a\r');
    expect(await readUntil(session, /Linux .*\r\n/)).toMatch(new RegExp(`Linux ${GATEWAY.hostname}`));
  });

  it('pins the relay by host:port with the fingerprint of its real host key', async () => {
    const session = await openReverse();
    const relayKey = session.hostKeys[0];
    expect(relayKey?.keyId).toBe(`127.0.0.1:${relay.port}`);
    expect(relayKey?.fingerprint).toBe(
      fingerprintHostKey(Buffer.from(relay.hostKeyLine.split(' ')[1]!, 'base64')),
    );
  });

  it('refuses sshd when its host key is not the pinned one, and connects once the key is replaced', async () => {
    const keyId = `127.0.0.1:${relay.port}`;
    const stale = 'SHA256:' + 'C'.repeat(43);
    await harness.knownHosts.replace(keyId, stale);
    const actual = fingerprintHostKey(Buffer.from(relay.hostKeyLine.split(' ')[1]!, 'base64'));
    await expect(openReverse()).rejects.toMatchObject({
      name: 'HostKeyChangedError',
      keyId,
      expected: stale,
      actual,
    });
    expect(harness.commands).toEqual([]);
    await harness.service.replaceHostKey(keyId, actual);
    const session = await openReverse();
    await readUntil(session, PROMPT);
  });

  it('asks for a tunnel on a port that sshd permits', async () => {
    await openReverse();
    const port = harness.commands.find((command) => command.command === 'reverseSsh')?.body.sshRevPort;
    expect(relay.permittedPorts).toContain(port);
  });

  it('notices a dropped relay connection and reconnects', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    relay.dropConnections();
    await waitForState(session, 'failed');
    await session.reconnect();
    session.write('hostname\r');
    await readUntil(session, `${GATEWAY.hostname}\r\n`);
  });

  it('delivers a 5 MB flood through sshd complete while the renderer acknowledges slowly', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const flood = await runFlood(session, 5, { acknowledgeEveryMs: 5 });
    expect(flood.bodyBytes).toBe(5_000_000);
    expect(flood.receivedSha256).toBe(flood.announcedSha256);
  });

  it('sends stopReverseSsh on close and sshd no longer forwards to the tunnel', async () => {
    const session = await openReverse();
    const port = harness.commands.find((command) => command.command === 'reverseSsh')?.body
      .sshRevPort as number;
    expect(await relayRefusesForward(port)).toBe(false);
    await session.close();
    expect(harness.commands.at(-1)?.command).toBe('stopReverseSsh');
    expect(await relayRefusesForward(port)).toBe(true);
  });
});
