import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BindingPortInterface } from '../../../../electron/shared/serial/binding-types';
import { DEMO_CONSOLE_PATH, DemoConsoleBinding } from '../../../../simulator/serial/demo-binding';

const GATEWAY = {
  gatewayId: 'demo-gw-1',
  hostname: 'kona-demo',
  bspVersion: '7.1.2',
  rootPassword: 'demo-pass',
};

/** Reads from a port until the text appears; returns everything read so far. */
async function readUntil(
  port: BindingPortInterface,
  text: string,
  state: { received: string },
): Promise<string> {
  const buffer = Buffer.alloc(8_192);
  for (let reads = 0; reads < 100_000 && !state.received.includes(text); reads += 1) {
    const { bytesRead } = await port.read(buffer, 0, buffer.length);
    state.received += buffer.toString('latin1', 0, bytesRead);
  }
  return state.received;
}

describe('DemoConsoleBinding', () => {
  const openPorts: BindingPortInterface[] = [];
  afterEach(async () => {
    for (const port of openPorts.splice(0)) if (port.isOpen) await port.close();
  });

  async function openDemoPort(
    binding = new DemoConsoleBinding({ gateway: GATEWAY, loginFailureDelayMs: 1 }),
  ) {
    const port = await binding.open({ path: DEMO_CONSOLE_PATH, baudRate: 115_200 });
    openPorts.push(port);
    return port;
  }

  it('lists one port labelled as the demo gateway console', async () => {
    const ports = await new DemoConsoleBinding({ gateway: GATEWAY }).list();
    expect(ports).toEqual([
      expect.objectContaining({ path: DEMO_CONSOLE_PATH, manufacturer: 'Demo gateway console' }),
    ]);
  });

  it('opens at any baud rate and shows the login prompt', async () => {
    const binding = new DemoConsoleBinding({ gateway: GATEWAY });
    const port = await binding.open({
      path: DEMO_CONSOLE_PATH,
      baudRate: 31_337,
      dataBits: 7,
      parity: 'mark',
    });
    openPorts.push(port);
    expect(await readUntil(port, 'login: ', { received: '' })).toContain('kona-demo login: ');
    expect(await port.getBaudRate()).toEqual({ baudRate: 31_337 });
  });

  it('runs a command after logging in', async () => {
    const port = await openDemoPort();
    const state = { received: '' };
    await readUntil(port, 'login: ', state);
    await port.write(Buffer.from('root\rdemo-pass\r'));
    await readUntil(port, 'root@kona-demo:~# ', state);
    await port.write(Buffer.from('uname -a\r'));
    expect(await readUntil(port, 'GNU/Linux', state)).toContain('Linux kona-demo 4.14.98-kona');
  });

  it('delivers a flood byte-exact to a reader', async () => {
    const port = await openDemoPort();
    const state = { received: '' };
    await readUntil(port, 'login: ', state);
    await port.write(Buffer.from('root\rdemo-pass\r'));
    await readUntil(port, '~# ', state);
    state.received = '';
    await port.write(Buffer.from('flood 1\r'));
    const received = await readUntil(port, '~# ', state);
    const match = /flood 1\r\n([\s\S]*)sha256 ([0-9a-f]{64})\r\n/.exec(received);
    expect(match?.[1]?.length).toBe(1_000_000);
    expect(createHash('sha256').update(match![1]!, 'latin1').digest('hex')).toBe(match![2]);
  });

  it('refuses a second open while the port is open', async () => {
    const binding = new DemoConsoleBinding({ gateway: GATEWAY });
    await openDemoPort(binding);
    await expect(binding.open({ path: DEMO_CONSOLE_PATH, baudRate: 9_600 })).rejects.toThrow(
      /Cannot lock port/,
    );
  });

  it('cancels a pending read when the port closes', async () => {
    const port = await openDemoPort();
    await readUntil(port, 'login: ', { received: '' });
    const pending = port.read(Buffer.alloc(16), 0, 16);
    await port.close();
    await expect(pending).rejects.toMatchObject({ canceled: true });
  });
});
