import ssh2 from 'ssh2';
import type { Client } from 'ssh2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deriveHostKey } from '../../../simulator/ssh/host-keys';
import { SshRelay } from '../../../simulator/ssh/relay';

const USER = 'relay-user';
const PASSWORD = 'relay-password';

let relay: SshRelay;
const clients: Client[] = [];

beforeEach(async () => {
  relay = await SshRelay.start({
    hostKey: deriveHostKey('test', 'relay'),
    username: USER,
    password: PASSWORD,
    permittedPorts: { first: 41_000, last: 41_009 },
  });
});

afterEach(async () => {
  clients.splice(0).forEach((client) => client.end());
  await relay.close();
});

function connect(password = PASSWORD): Promise<Client> {
  const client = new ssh2.Client();
  clients.push(client);
  // The relay closing under a client at teardown is expected; errors that matter reject below.
  client.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    client.once('ready', () => resolve(client));
    client.once('error', reject);
    client.connect({
      host: relay.host,
      port: relay.port,
      username: USER,
      password,
      hostVerifier: () => true,
    });
  });
}

function forwardIn(client: Client, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) =>
    client.forwardIn(address, port, (error) => (error ? reject(error) : resolve())),
  );
}

function forwardOut(client: Client, port: number): Promise<unknown> {
  return new Promise((resolve, reject) =>
    client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (error, stream) =>
      error ? reject(error) : resolve(stream),
    ),
  );
}

describe('the simulator relay', () => {
  it('refuses a wrong password', async () => {
    await expect(connect('wrong')).rejects.toThrow(/authentication methods failed/);
  });

  it('accepts a remote forward on 127.0.0.1 at a permitted port', async () => {
    const gateway = await connect();
    await forwardIn(gateway, '127.0.0.1', 41_003);
    expect(relay.tunnelPorts()).toEqual([41_003]);
  });

  it('refuses a remote forward on a port outside the permitted range', async () => {
    const gateway = await connect();
    await expect(forwardIn(gateway, '127.0.0.1', 41_010)).rejects.toThrow();
    expect(relay.tunnelPorts()).toEqual([]);
  });

  it('refuses a remote forward on an address other than 127.0.0.1', async () => {
    const gateway = await connect();
    await expect(forwardIn(gateway, '0.0.0.0', 41_004)).rejects.toThrow();
  });

  it('refuses a second remote forward on a port that already has a tunnel', async () => {
    await forwardIn(await connect(), '127.0.0.1', 41_005);
    await expect(forwardIn(await connect(), '127.0.0.1', 41_005)).rejects.toThrow();
  });

  it('refuses a local forward to a port without a tunnel', async () => {
    const technician = await connect();
    await expect(forwardOut(technician, 41_001)).rejects.toThrow();
  });

  it('hands a local forward to the gateway holding the tunnel', async () => {
    const gateway = await connect();
    await forwardIn(gateway, '127.0.0.1', 41_002);
    const accepted = new Promise<string>((resolve) =>
      gateway.once('tcp connection', (info, accept) => {
        accept().end('hello technician');
        resolve(`${info.destIP}:${info.destPort}`);
      }),
    );
    const stream = (await forwardOut(await connect(), 41_002)) as NodeJS.ReadableStream;
    const received = await new Promise<string>((resolve) => {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => resolve(text));
    });
    expect(await accepted).toBe('127.0.0.1:41002');
    expect(received).toBe('hello technician');
  });

  it('forgets the tunnels of a gateway that disconnects', async () => {
    const gateway = await connect();
    await forwardIn(gateway, '127.0.0.1', 41_006);
    const closed = new Promise<void>((resolve) => gateway.once('close', () => resolve()));
    gateway.end();
    await closed;
    await expect(forwardOut(await connect(), 41_006)).rejects.toThrow();
  });
});
