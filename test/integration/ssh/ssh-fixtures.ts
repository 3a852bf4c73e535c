import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnownHosts } from '../../../electron/services/ssh/known-hosts';
import { gatewayCommands } from '../../../electron/shared/api/commands';
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
    logsDir: join(dataDir, 'logs'),
    tunnelTimeoutMs: 10_000,
    keepaliveIntervalMs: 1_000,
    async runCommand(gatewayId, command, body) {
      commands.push({ gatewayId, command, body });
      if (command === 'reverseSsh') {
        await tunnels.openReverseTunnel(gatewayId, gatewayCommands.reverseSsh.request.parse(body));
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

/** What a flood looked like from the renderer's side. */
export interface FloodResult {
  bodyBytes: number;
  /** The `sha256 <hex>` line the shell printed after the flood. */
  announcedSha256: string;
  /** SHA-256 of the bytes actually received between the command line and that line. */
  receivedSha256: string;
  elapsedMs: number;
  /** The most bytes ever handed to the "renderer" and not yet acknowledged. */
  maxUnacknowledged: number;
}

/**
 * Runs `flood <megabytes>` in an open session and plays a renderer that acknowledges what it got
 * in batches on a timer (like xterm's write callbacks), until the shell's sha256 line arrives.
 */
export function runFlood(
  session: SshSession,
  megabytes: number,
  options: { acknowledgeEveryMs?: number; timeoutMs?: number } = {},
): Promise<FloodResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let pendingAcknowledge = 0;
    let maxUnacknowledged = 0;
    const startedAt = performance.now();
    const acknowledgeTimer = setInterval(() => {
      session.acknowledge(pendingAcknowledge);
      pendingAcknowledge = 0;
    }, options.acknowledgeEveryMs ?? 1);
    const timeout = setTimeout(
      () => finish(new Error(`flood ${megabytes} did not finish; ${received} bytes received`)),
      options.timeoutMs ?? 60_000,
    );
    const onData = (chunk: Uint8Array) => {
      const bytes = Buffer.from(chunk);
      chunks.push(bytes);
      received += bytes.length;
      pendingAcknowledge += bytes.length;
      maxUnacknowledged = Math.max(maxUnacknowledged, session.unacknowledged);
      // Only the tail can hold the final line; look at the last chunk and a bit before it.
      const tail = Buffer.concat(chunks.slice(-2)).toString('latin1');
      if (/sha256 [0-9a-f]{64}\r\n/.test(tail)) finish();
    };
    function finish(error?: Error) {
      clearInterval(acknowledgeTimer);
      clearTimeout(timeout);
      session.off('data', onData);
      session.acknowledge(pendingAcknowledge);
      if (error) {
        reject(error);
        return;
      }
      const elapsedMs = performance.now() - startedAt;
      const all = Buffer.concat(chunks);
      const command = Buffer.from(`flood ${megabytes}\r\n`, 'latin1');
      const bodyStart = all.indexOf(command) + command.length;
      const hashLine = all.lastIndexOf(Buffer.from('sha256 ', 'latin1'));
      const body = all.subarray(bodyStart, hashLine);
      resolve({
        bodyBytes: body.length,
        announcedSha256: all.subarray(hashLine + 7, hashLine + 7 + 64).toString('latin1'),
        receivedSha256: createHash('sha256').update(body).digest('hex'),
        elapsedMs,
        maxUnacknowledged,
      });
    }
    session.on('data', onData);
    session.write(`flood ${megabytes}\r`);
  });
}

/**
 * Starts `flood <megabytes>`, acknowledging on a timer like a renderer, and once 2 MB have arrived types `%` (never
 * part of a flood) whenever the last one was echoed, `keystrokes` times. Resolves with, for each keystroke, how
 * many bytes of output arrived between typing it and its echo.
 */
export function typeDuringFlood(
  session: SshSession,
  options: { megabytes: number; keystrokes: number; acknowledgeEveryMs: number; timeoutMs?: number },
): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let received = 0;
    let pendingAcknowledge = 0;
    let typedAt: number | undefined;
    const behind: number[] = [];
    const acknowledgeTimer = setInterval(() => {
      session.acknowledge(pendingAcknowledge);
      pendingAcknowledge = 0;
    }, options.acknowledgeEveryMs);
    const timeout = setTimeout(
      () => finish(new Error(`flood ${options.megabytes} did not finish; ${received} bytes received`)),
      options.timeoutMs ?? 60_000,
    );
    const onData = (chunk: Uint8Array) => {
      received += chunk.byteLength;
      pendingAcknowledge += chunk.byteLength;
      const text = Buffer.from(chunk).toString('latin1');
      if (typedAt !== undefined && text.includes('%')) {
        behind.push(received - typedAt);
        typedAt = undefined;
      }
      if (typedAt === undefined && received > 2_000_000 && behind.length < options.keystrokes) {
        typedAt = received;
        session.write('%');
      }
      if (/sha256 [0-9a-f]{64}/.test(text)) finish();
    };
    function finish(error?: Error) {
      clearInterval(acknowledgeTimer);
      clearTimeout(timeout);
      session.off('data', onData);
      session.acknowledge(pendingAcknowledge);
      if (error) reject(error);
      else resolve(behind);
    }
    session.on('data', onData);
    session.write(`flood ${options.megabytes}\r`);
  });
}
