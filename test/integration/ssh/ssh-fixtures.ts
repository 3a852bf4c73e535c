import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnownHosts } from '../../../electron/services/ssh/known-hosts';
import { SshService, type SshServiceDependencies } from '../../../electron/services/ssh/ssh-service';
import type { SshSession } from '../../../electron/services/ssh/ssh-session';
import type { ReverseTunnels } from '../../../simulator/tunnels';

/** A gateway command the service sent, as the API would have received it. */
export interface SentCommand {
  gatewayId: string;
  command: string;
  body: Record<string, unknown>;
}

/** An SshService wired to the simulator's tunnels the way the API's reverseSsh / stopReverseSsh are. */
export interface ServiceHarness {
  service: SshService;
  knownHosts: KnownHosts;
  commands: SentCommand[];
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Builds the service with a temp data folder; `runCommand` forwards to `tunnels` like the simulator's API. */
export async function createServiceHarness(
  tunnels: ReverseTunnels,
  overrides: Partial<SshServiceDependencies> = {},
): Promise<ServiceHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-ssh-'));
  const knownHosts = new KnownHosts({ path: join(dataDir, 'known-hosts.json') });
  const commands: SentCommand[] = [];
  const service = new SshService({
    knownHosts,
    tunnelTimeoutMs: 10_000,
    keepaliveIntervalMs: 1_000,
    async runCommand(gatewayId, command, body) {
      commands.push({ gatewayId, command, body });
      if (command === 'reverseSsh') {
        await tunnels.openReverseTunnel(
          gatewayId,
          body as unknown as Parameters<ReverseTunnels['openReverseTunnel']>[1],
        );
      } else if (command === 'stopReverseSsh') {
        await tunnels.closeTunnels(gatewayId);
      }
      return {};
    },
    ...overrides,
  });
  return {
    service,
    knownHosts,
    commands,
    dataDir,
    async cleanup() {
      await service.closeAll();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Acts as the renderer: acknowledges every byte as it arrives and resolves with everything received
 * once `expected` shows up (or rejects after `timeoutMs` with what was seen).
 */
export function readUntil(
  session: SshSession,
  expected: string | RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const matches = () => (typeof expected === 'string' ? text.includes(expected) : expected.test(text));
    const timer = setTimeout(() => {
      session.off('data', onData);
      reject(new Error(`timed out waiting for ${String(expected)}; received:\n${text.slice(-2_000)}`));
    }, timeoutMs);
    const onData = (chunk: Uint8Array) => {
      text += Buffer.from(chunk).toString('utf8');
      session.acknowledge(chunk.byteLength);
      if (matches()) {
        clearTimeout(timer);
        session.off('data', onData);
        resolve(text);
      }
    };
    session.on('data', onData);
  });
}

/** Resolves when the session reaches `state` (or at once if it is there). */
export function waitForState(
  session: SshSession,
  state: SshSession['state'],
  timeoutMs = 15_000,
): Promise<string | undefined> {
  if (session.state === state) return Promise.resolve(session.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      session.off('state', onState);
      reject(new Error(`session stayed ${session.state} (${session.reason ?? ''}), expected ${state}`));
    }, timeoutMs);
    const onState = (next: string, reason?: string) => {
      if (next !== state) return;
      clearTimeout(timer);
      session.off('state', onState);
      resolve(reason);
    };
    session.on('state', onState);
  });
}
