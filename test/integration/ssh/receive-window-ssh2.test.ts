import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import type { Client, ClientChannel, Server } from 'ssh2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReceiveWindow } from '../../../electron/services/ssh/receive-window';

// ReceiveWindow patches ssh2's private channel and protocol internals (docs/adr/0002-ssh2-window-steering.md).
// These tests run it against the real ssh2 on both ends, so an ssh2 release that moves those internals fails here.

/** What the server's shell writes at once: far more than any window, so only the window limits the flow. */
const FLOOD_BYTES = 8 * 1024 * 1024;
const WINDOW_BYTES = 256 * 1024;

let server: Server;
let port: number;
const clients: Client[] = [];

beforeEach(async () => {
  const hostKey = ssh2.utils.generateKeyPairSync('ed25519').private;
  server = new ssh2.Server({ hostKeys: [hostKey] }, (connection) => {
    connection.on('authentication', (context) => context.accept());
    connection.on('error', () => undefined);
    connection.on('session', (accept) => {
      const session = accept();
      session.on('pty', (acceptPty) => acceptPty());
      session.on('shell', (acceptShell) => {
        const channel = acceptShell();
        channel.on('error', () => undefined);
        channel.end(Buffer.alloc(FLOOD_BYTES, 'x'));
      });
      // An exec channel answers at once: a round trip that the shell's window does not hold back.
      session.on('exec', (acceptExec) => {
        const channel = acceptExec();
        channel.exit(0);
        channel.end('pong');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(async () => {
  clients.splice(0).forEach((client) => client.end());
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function connect(): Promise<Client> {
  const client = new ssh2.Client();
  clients.push(client);
  return new Promise((resolve, reject) => {
    client.once('ready', () => resolve(client));
    client.once('error', reject);
    client.connect({ host: '127.0.0.1', port, username: 'tech', hostVerifier: () => true });
  });
}

/** Opens the flooding shell; `steer` runs as soon as the channel exists, before any of its data is read. */
function openShell(client: Client, steer: (channel: ClientChannel) => void = () => undefined) {
  return new Promise<ClientChannel>((resolve, reject) => {
    client.shell((error, channel) => {
      if (error) return reject(error);
      steer(channel);
      resolve(channel);
    });
  });
}

/**
 * A request and its answer on a second channel of the same connection. SSH keeps one order per connection, and
 * ssh2's server sends held data as soon as a window adjustment arrives: when the answer is in, the server has
 * seen every adjustment sent before the request, and any data they allowed has arrived.
 */
function roundTrip(client: Client): Promise<void> {
  return new Promise((resolve, reject) => {
    client.exec('ping', (error, channel) => {
      if (error) return reject(error);
      channel.resume();
      channel.on('close', () => resolve());
    });
  });
}

function countBytes(channel: ClientChannel): { readonly bytes: number; ended: Promise<void> } {
  const counter = { bytes: 0, ended: new Promise<void>((resolve) => channel.on('close', () => resolve())) };
  channel.on('data', (chunk: Buffer) => {
    counter.bytes += chunk.length;
  });
  return counter;
}

describe('ReceiveWindow on the real ssh2', () => {
  it('lets the server send only the window until the client acknowledges, then as much as it acknowledged', async () => {
    const client = await connect();
    let window: ReceiveWindow | undefined;
    const channel = await ReceiveWindow.openWithSmallWindow(client, WINDOW_BYTES, () =>
      openShell(client, (opened) => {
        window = ReceiveWindow.attach(opened, { fixedBytes: WINDOW_BYTES });
      }),
    );
    const counter = countBytes(channel);
    // undefined when ssh2's internals are not the ones ReceiveWindow was written for.
    expect(window).toBeDefined();

    await roundTrip(client);
    expect(counter.bytes).toBe(WINDOW_BYTES);
    expect(window!.received).toBe(WINDOW_BYTES);
    await roundTrip(client);
    expect(counter.bytes).toBe(WINDOW_BYTES);

    window!.acknowledged(128 * 1024);
    await roundTrip(client);
    expect(counter.bytes).toBe(WINDOW_BYTES + 128 * 1024);
    expect(window!.outstanding).toBe(WINDOW_BYTES);

    window!.detach();
    await counter.ended;
    expect(counter.bytes).toBe(FLOOD_BYTES);
  });

  it('without steering, ssh2 lets the whole flood in with nothing acknowledged', async () => {
    const client = await connect();
    const channel = await openShell(client);
    const counter = countBytes(channel);
    await counter.ended;
    expect(counter.bytes).toBe(FLOOD_BYTES);
  });
});
