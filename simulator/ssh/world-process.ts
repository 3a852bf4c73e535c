// Runs an SSH world (relay + gateway sshds) in its own process, driven over stdio as JSON lines, so a
// benchmark measures the app's process alone: `tsx simulator/ssh/world-process.ts '<options json>'`.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ReverseTunnelRequest, ReverseTunnels } from '../tunnels';
import { createSshWorld, type SshWorldOptions } from './ssh-world';

type WorldProcessOptions = Omit<SshWorldOptions, 'createShell' | 'onReboot'>;

interface Call {
  id: number;
  method: 'openReverseTunnel' | 'closeTunnels' | 'close';
  gatewayId?: string;
  request?: ReverseTunnelRequest;
}

/** An SSH world in a child process: the relay's address and its tunnels, driven over stdio. */
export interface SshWorldProcess {
  relay: { host: string; port: number; username: string; password: string };
  tunnels: ReverseTunnels;
  close(): Promise<void>;
}

/** Starts a world in a child process (tsx) and resolves once its relay listens. */
export async function startSshWorldProcess(options: WorldProcessOptions): Promise<SshWorldProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), JSON.stringify(options)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  const ready = new Promise<SshWorldProcess['relay']>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`SSH world process exited (${code}) before it was ready`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { relay: SshWorldProcess['relay'] }).relay));
  });
  const relay = await ready;
  lines.on('line', (line) => {
    const answer = JSON.parse(line) as { id: number; error?: string };
    const call = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.error) call?.reject(new Error(answer.error));
    else call?.resolve(undefined);
  });
  const send = (call: Omit<Call, 'id'>) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify({ ...call, id })}\n`);
    });
  return {
    relay,
    tunnels: {
      openReverseTunnel: async (gatewayId, request) => {
        await send({ method: 'openReverseTunnel', gatewayId, request });
      },
      closeTunnels: async (gatewayId) => {
        await send({ method: 'closeTunnels', gatewayId });
      },
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (child.exitCode === null) {
        await send({ method: 'close' }).catch(() => undefined);
        child.stdin!.end();
      }
      await exited;
    },
  };
}

async function serve(options: WorldProcessOptions): Promise<void> {
  const world = await createSshWorld(options);
  process.stdout.write(`${JSON.stringify({ relay: world.relay })}\n`);
  const answer = async (call: Call) => {
    try {
      if (call.method === 'openReverseTunnel')
        await world.tunnels.openReverseTunnel(call.gatewayId!, call.request!);
      else if (call.method === 'closeTunnels') await world.tunnels.closeTunnels(call.gatewayId!);
      else if (call.method === 'close') {
        await world.close();
        process.stdout.write(`${JSON.stringify({ id: call.id })}\n`);
        process.exit(0);
      }
      process.stdout.write(`${JSON.stringify({ id: call.id })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ id: call.id, error: (error as Error).message })}\n`);
    }
  };
  // Calls are answered as they finish, not in turn: a stop must reach a tunnel that is still opening.
  for await (const line of createInterface({ input: process.stdin })) void answer(JSON.parse(line) as Call);
  await world.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await serve(JSON.parse(process.argv[2] ?? '{}') as WorldProcessOptions);
}
