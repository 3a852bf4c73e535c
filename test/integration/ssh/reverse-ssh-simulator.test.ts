import { readFile } from 'node:fs/promises';
import ssh2 from 'ssh2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostKeyChangedError, HostKeyNotRefusedError } from '../../../electron/services/ssh/host-key-errors';
import { createSshWorld, type SshWorld } from '../../../simulator/ssh/ssh-world';
import { makeReverseSshRequest } from '../../helpers/factories';
import type { ReverseSshStep } from '../../../electron/services/ssh/reverse-connect-steps';
import { SSH_HIGH_WATERMARK_DEFAULT, type SshSession } from '../../../electron/services/ssh/ssh-session';
import { SYSTEM_CLOCK } from '../../../electron/shared/clock';
import {
  createServiceHarness,
  readUntil,
  runFlood,
  typeDuringFlood,
  waitForState,
  type ServiceHarness,
} from './ssh-fixtures';

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

/** A reverse session to GATEWAY through the world's relay, with the root password; `onProgress` follows its steps. */
function openReverse(onProgress?: (step: ReverseSshStep) => void) {
  return harness.service.openReverse({
    gatewayId: GATEWAY.id,
    relay: world.relay,
    rootPassword: GATEWAY.rootPassword,
    cols: 100,
    rows: 30,
    ...(onProgress ? { onProgress } : {}),
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

  it('reports each step of opening the session', async () => {
    const steps: string[] = [];
    await harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      rootPassword: GATEWAY.rootPassword,
      cols: 80,
      rows: 24,
      onProgress: (step) => steps.push(step),
    });
    expect(steps).toEqual(['relay', 'request-tunnel', 'wait-for-tunnel', 'gateway-login']);
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

  it('pins no key but the one the last refusal showed for that key id', async () => {
    const keyId = `gateway:${GATEWAY.id}`;
    const relayKey = `127.0.0.1:${world.relay.port}`;
    const attacker = 'SHA256:' + 'C'.repeat(43);
    const neverRefused = await harness.service
      .replaceHostKey(keyId, attacker)
      .catch((error: unknown) => error);
    expect(neverRefused).toBeInstanceOf(HostKeyNotRefusedError);
    await harness.knownHosts.replace(keyId, 'SHA256:' + 'A'.repeat(43));
    const refused = (await openReverse().catch((error: unknown) => error)) as HostKeyChangedError;
    expect(refused).toBeInstanceOf(HostKeyChangedError);
    await expect(harness.service.replaceHostKey(keyId, attacker)).rejects.toThrow(
      /not the key gateway:\S+ presented when it was last refused/,
    );
    await expect(harness.service.replaceHostKey(relayKey, refused.actual)).rejects.toBeInstanceOf(
      HostKeyNotRefusedError,
    );
    expect((await harness.knownHosts.lookup(keyId))?.fingerprint).toBe('SHA256:' + 'A'.repeat(43));
    await harness.service.replaceHostKey(keyId, refused.actual);
    await expect(harness.service.replaceHostKey(keyId, refused.actual)).rejects.toBeInstanceOf(
      HostKeyNotRefusedError,
    );
    expect((await openReverse()).state).toBe('open');
  });

  it('refuses a relay whose host key changed before asking the gateway for anything', async () => {
    const relayKey = `127.0.0.1:${world.relay.port}`;
    const stale = 'SHA256:' + 'B'.repeat(43);
    await harness.knownHosts.replace(relayKey, stale);
    const refused = await openReverse().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HostKeyChangedError);
    expect(refused).toMatchObject({
      keyId: relayKey,
      expected: stale,
      actual: world.relayHostKey.fingerprint,
    });
    expect(harness.commands).toEqual([]);
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

  it('logs the session to a file named after the gateway, date and time', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    session.write('uname -a\r');
    await readUntil(session, PROMPT);
    await session.close();
    expect(session.logPath).toMatch(
      new RegExp(`/logs/${GATEWAY.id}_\\d{4}-\\d{2}-\\d{2}_\\d{2}-\\d{2}-\\d{2}\\.log$`),
    );
    const logged = await readFile(session.logPath!, 'utf8');
    // Each line carries its time to the millisecond; without the stamps the log is every byte received.
    const stamp = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] /gm;
    expect(logged).toMatch(new RegExp(`uname -a\r\n\\[[\\d:.]{12}\\] Linux ${GATEWAY.hostname}`));
    expect(
      logged.split('\n').filter((line) => line.replace('\r', '') !== '' && !/^\[\d{2}:/.test(line)),
    ).toEqual([]);
    expect(Buffer.byteLength(logged.replace(stamp, ''))).toBe(session.bytesIn);
  });

  it('closes the session when the gateway reboots, and its tunnel is gone', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const closed = new Promise<void>((resolve) => session.once('closed', () => resolve()));
    session.write('reboot\r');
    await closed;
    expect(session.reason).toMatch(/exited \(code 0\)/);
    expect(world.tunnelPorts()).toEqual([]);
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
    const flood = await runFlood(session, 8, { acknowledgeEveryMs: 20 });
    expect(flood.maxUnacknowledged).toBeLessThan(SSH_HIGH_WATERMARK_DEFAULT + 64 * 1024);
  });

  it('echoes a keystroke typed during a flood behind at most the receive window of output', async () => {
    await harness.cleanup();
    harness = await createServiceHarness(world.tunnels, { receiveWindowBytes: 256 * 1024 });
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const behind = await typeDuringFlood(session, { megabytes: 8, keystrokes: 4, acknowledgeEveryMs: 10 });
    expect(behind).toHaveLength(4);
    // The window plus the gateway shell's own output buffer (64 kB); ssh2 alone queues over a megabyte.
    for (const bytes of behind) expect(bytes).toBeLessThan(256 * 1024 + 128 * 1024);
  });
});

describe('reverse SSH failures a technician can act on', () => {
  it('notices a relay that goes silent within the keepalive window', async () => {
    const session = await openReverse();
    await readUntil(session, PROMPT);
    world.freezeRelayConnections();
    expect(await waitForState(session, 'failed', 10_000)).toMatch(/Keepalive timeout/i);
  });

  it('probes for the tunnel with a doubling wait, capped, and says the gateway did not open it in time', async () => {
    let clock = 0;
    const slept: number[] = [];
    const silent = await createServiceHarness(
      { openReverseTunnel: async () => undefined, closeTunnels: async () => undefined },
      {
        tunnelTimeoutMs: 10_000,
        clock: {
          ...SYSTEM_CLOCK,
          now: () => clock,
          sleep: async (milliseconds) => {
            slept.push(milliseconds);
            clock += milliseconds;
          },
        },
      },
    );
    try {
      const opening = silent.service.openReverse({
        gatewayId: GATEWAY.id,
        relay: world.relay,
        rootPassword: 'x',
        cols: 80,
        rows: 24,
      });
      await expect(opening).rejects.toMatchObject({
        name: 'TunnelTimeoutError',
        message: expect.stringMatching(
          /did not open its tunnel on the relay 127\.0\.0\.1:\d+ \(port \d+\) within 10 s/,
        ),
      });
      // 200 ms doubling up to TUNNEL_PROBE_DELAYS_MS.max (3 s), the last wait cut to end at the timeout.
      expect(slept).toEqual([200, 400, 800, 1_600, 3_000, 3_000, 1_000]);
      expect(silent.commands.map((command) => command.command)).toEqual(['reverseSsh', 'stopReverseSsh']);
    } finally {
      await silent.cleanup();
    }
  });

  it('passes on why the gateway could not open its tunnel', async () => {
    await world.close();
    world = await createSshWorld({
      seed: 'reverse-ssh-test',
      relayUser: 'relay',
      relayPassword: 'relay-secret',
      relayPermittedPorts: { first: 41_000, last: 41_009 },
      gateways: [GATEWAY],
    });
    harness = await createServiceHarness(world.tunnels);
    const opening = harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      portRange: [42_000, 42_009],
      rootPassword: GATEWAY.rootPassword,
      cols: 80,
      rows: 24,
    });
    await expect(opening).rejects.toThrow(
      /could not ask gateway .* for a tunnel: the relay 127\.0\.0\.1:\d+ refused to listen on 127\.0\.0\.1:420\d\d/,
    );
  });

  it('picks a relay port that no other tunnel holds', async () => {
    const other = { ...GATEWAY, id: 'gw-other', hostname: 'kona-other' };
    await world.close();
    world = await createSshWorld({
      seed: 'reverse-ssh-test',
      relayUser: 'relay',
      relayPassword: 'relay-secret',
      relayPermittedPorts: { first: 41_100, last: 41_101 },
      gateways: [GATEWAY, other],
    });
    harness = await createServiceHarness(world.tunnels);
    await world.tunnels.openReverseTunnel(
      other.id,
      makeReverseSshRequest({ sshPort: world.relay.port, sshRevPort: 41_100, password: 'relay-secret' }),
    );
    const session = await harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      portRange: [41_100, 41_101],
      rootPassword: GATEWAY.rootPassword,
      cols: 80,
      rows: 24,
    });
    await readUntil(session, PROMPT);
    expect(harness.commands[0]?.body.sshRevPort).toBe(41_101);
  });

  it('says the relay refused the password', async () => {
    const opening = harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: { ...world.relay, password: 'wrong' },
      rootPassword: GATEWAY.rootPassword,
      cols: 80,
      rows: 24,
    });
    await expect(opening).rejects.toThrow(
      `The relay 127.0.0.1:${world.relay.port} refused the password for relay.`,
    );
    expect(harness.commands).toEqual([]);
  });

  it('asks the root password again when the gateway refused the one entered, and stops the tunnel it asked for', async () => {
    const opening = harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      rootPassword: 'wrong',
      cols: 80,
      rows: 24,
    });
    await expect(opening).rejects.toMatchObject({
      name: 'RootPasswordRequiredError',
      message: `Gateway ${GATEWAY.id} refused the root password entered. Enter the one on its label.`,
    });
    expect(harness.commands.map((command) => command.command)).toEqual(['reverseSsh', 'stopReverseSsh']);
    expect(world.tunnelPorts()).toEqual([]);
  });

  it('asks the root password when the gateway refused the one kept in the keychain (changed since)', async () => {
    await harness.cleanup();
    harness = await createServiceHarness(world.tunnels, {
      credentials: { rootPassword: async () => 'the-password-before' },
    });
    const opening = harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      cols: 80,
      rows: 24,
    });
    await expect(opening).rejects.toMatchObject({
      name: 'RootPasswordRequiredError',
      message: `Gateway ${GATEWAY.id} refused the root password kept for it. Enter the one on its label.`,
    });
    // Entering the current one opens the shell.
    const session = await openReverse();
    expect(session.state).toBe('open');
    await session.close();
  });

  it('asks for the root password when none is given or stored', async () => {
    const opening = harness.service.openReverse({
      gatewayId: GATEWAY.id,
      relay: world.relay,
      cols: 80,
      rows: 24,
    });
    await expect(opening).rejects.toMatchObject({ name: 'RootPasswordRequiredError' });
  });
});

describe('reverse SSH reconnects and closes that leave no tunnel behind', () => {
  /** An open session whose relay link and tunnel then went away (the gateway's cellular link flapped). */
  async function openThenLoseTunnel(onProgress?: (step: ReverseSshStep) => void): Promise<SshSession> {
    const session = await openReverse(onProgress);
    await readUntil(session, PROMPT);
    await world.tunnels.closeTunnels(GATEWAY.id);
    world.dropRelayConnections();
    await waitForState(session, 'failed');
    return session;
  }

  it('reconnects through a new tunnel when the old one holds its relay port but no longer answers', async () => {
    await harness.cleanup();
    harness = await createServiceHarness(world.tunnels, { forwardTimeoutMs: 500 });
    const session = await openReverse();
    await readUntil(session, PROMPT);
    const oldPort = harness.commands[0]?.body.sshRevPort;
    world.freezeRelayConnections();
    await waitForState(session, 'failed');
    await session.reconnect();
    expect(harness.commands.map((command) => command.command)).toEqual([
      'reverseSsh',
      'stopReverseSsh',
      'reverseSsh',
    ]);
    expect(harness.commands[2]?.body.sshRevPort).not.toBe(oldPort);
    session.write('hostname\r');
    await readUntil(session, `${GATEWAY.hostname}\r\n`);
  });

  it('sends no reverseSsh after the tab is closed during a reconnect, and no tunnel is left', async () => {
    let isReconnecting = false;
    let closing: Promise<void> | undefined;
    const session: SshSession = await openThenLoseTunnel((step) => {
      if (isReconnecting && step === 'request-tunnel') closing ??= session.close();
    });
    isReconnecting = true;
    await session.reconnect();
    await closing;
    expect(session.state).toBe('closed');
    expect(harness.commands.map((command) => command.command)).toEqual(['reverseSsh', 'stopReverseSsh']);
    expect(world.tunnelPorts()).toEqual([]);
  });

  it('stops the tunnel a reverseSsh still on its way opens when the tab is closed meanwhile', async () => {
    let closing: Promise<void> | undefined;
    let isReconnecting = false;
    await harness.cleanup();
    harness = await createServiceHarness({
      openReverseTunnel: (gatewayId, request) => {
        const opening = world.tunnels.openReverseTunnel(gatewayId, request);
        if (isReconnecting) closing ??= session.close();
        return opening;
      },
      closeTunnels: (gatewayId) => world.tunnels.closeTunnels(gatewayId),
    });
    const session = await openThenLoseTunnel();
    isReconnecting = true;
    await session.reconnect();
    await closing;
    expect(harness.commands.map((command) => command.command)).toEqual([
      'reverseSsh',
      'reverseSsh',
      'stopReverseSsh',
      'stopReverseSsh',
    ]);
    expect(world.tunnelPorts()).toEqual([]);
  });

  it('says the relay went away, at once, when it drops while waiting for the tunnel', async () => {
    let clock = 0;
    const silent = await createServiceHarness(
      { openReverseTunnel: async () => undefined, closeTunnels: async () => undefined },
      {
        clock: {
          ...SYSTEM_CLOCK,
          now: () => clock,
          sleep: async (milliseconds) => {
            clock += milliseconds;
          },
        },
      },
    );
    try {
      const opening = silent.service.openReverse({
        gatewayId: GATEWAY.id,
        relay: world.relay,
        rootPassword: GATEWAY.rootPassword,
        cols: 80,
        rows: 24,
        onProgress: (step) => {
          if (step === 'wait-for-tunnel') world.dropRelayConnections();
        },
      });
      const failure = await opening.then(
        () => new Error('the session opened'),
        (error: Error) => error,
      );
      expect(failure.name).not.toBe('TunnelTimeoutError');
      expect(failure.message).toMatch(
        new RegExp(
          `relay 127\\.0\\.0\\.1:${world.relay.port}.*\\(while waiting for the gateway's tunnel\\)\\.$`,
        ),
      );
      // Well within the 10 s tunnel timeout of the fake clock.
      expect(clock).toBeLessThan(10_000);
    } finally {
      await silent.cleanup();
    }
  });
});

describe('direct SSH and exec on a gateway sshd', () => {
  it('opens a shell directly and pins the same gateway key as the reverse path', async () => {
    const address = await world.gatewayAddress(GATEWAY.id);
    const direct = await harness.service.openDirect({
      ...address,
      password: GATEWAY.rootPassword,
      gatewayId: GATEWAY.id,
      cols: 80,
      rows: 24,
    });
    await readUntil(direct, PROMPT);
    await direct.close();
    const reverse = await openReverse();
    expect(reverse.hostKeys[1]).toMatchObject({ keyId: `gateway:${GATEWAY.id}`, isNew: false });
  });

  it('runs one command with exec and returns only its output', async () => {
    const address = await world.gatewayAddress(GATEWAY.id);
    const client = new ssh2.Client();
    client.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      client.once('ready', () => resolve());
      client.once('error', reject);
      client.connect({
        ...address,
        username: 'root',
        password: GATEWAY.rootPassword,
        hostVerifier: () => true,
      });
    });
    try {
      const { output, code } = await new Promise<{ output: string; code: number }>((resolve, reject) =>
        client.exec('hostname', (error, channel) => {
          if (error) return reject(error);
          let output = '';
          let code = -1;
          channel.on('data', (chunk: Buffer) => (output += chunk.toString()));
          channel.on('exit', (exitCode: number) => (code = exitCode));
          channel.on('close', () => resolve({ output, code }));
        }),
      );
      expect(output).toBe(`${GATEWAY.hostname}\r\n`);
      expect(code).toBe(0);
    } finally {
      client.end();
    }
  });
});
