import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real OpenSSH `sshd` on 127.0.0.1 acting as a reverse-SSH relay. */
export interface OpenSshRelay {
  host: '127.0.0.1';
  port: number;
  username: string;
  password: string;
  /** The only ports a client may ask sshd to listen on (`PermitListen`, one line per port). */
  permittedPorts: number[];
  /** `ssh-ed25519 AAAA…` of the relay's host key. */
  hostKeyLine: string;
  /** Everything sshd wrote to stderr so far (`-e`), for failure messages. */
  log(): string;
  /** Kills every connection sshd is serving (its per-connection children); the listener stays up. */
  dropConnections(): void;
  /** Kills sshd and removes its temp dir; safe to call twice. */
  stop(): Promise<void>;
}

const SSHD = '/usr/sbin/sshd';
const START_TIMEOUT_MS = 10_000;

/**
 * Starts `sshd -D -e` on a free loopback port with password login for a test user, `GatewayPorts no`
 * and `PermitListen` limited to `portCount` free consecutive ports; resolves once sshd says it listens.
 */
export async function startOpenSshRelay(
  options: { username?: string; password?: string; portCount?: number } = {},
): Promise<OpenSshRelay> {
  const username = options.username ?? 'fieldkit-relay';
  const password = options.password ?? 'relay-Pa55word';
  ensureUser(username, password);
  await runChecked('mkdir', ['-p', '/run/sshd']);

  const directory = await mkdtemp(join(tmpdir(), 'fieldkit-sshd-'));
  const hostKeyPath = join(directory, 'ssh_host_ed25519_key');
  await runChecked('ssh-keygen', [
    '-q',
    '-t',
    'ed25519',
    '-N',
    '',
    '-C',
    'fieldkit-relay',
    '-f',
    hostKeyPath,
  ]);
  const hostKeyLine = (await readFile(`${hostKeyPath}.pub`, 'utf8')).split(' ').slice(0, 2).join(' ');

  const port = await findFreePort();
  const permittedPorts = await findFreePortRange(options.portCount ?? 8);
  const configPath = join(directory, 'sshd_config');
  await writeFile(
    configPath,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKeyPath}`,
      `PidFile ${join(directory, 'sshd.pid')}`,
      'UsePAM no',
      'PasswordAuthentication yes',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication no',
      'PermitRootLogin no',
      `AllowUsers ${username}`,
      'AllowTcpForwarding yes',
      'GatewayPorts no',
      'X11Forwarding no',
      'PermitTTY no',
      // A relay account forwards and does nothing else.
      'ForceCommand /bin/false',
      'LogLevel VERBOSE',
      `PermitListen ${permittedPorts.map((permitted) => `127.0.0.1:${permitted}`).join(' ')}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );

  const child = spawn(SSHD, ['-D', '-e', '-f', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    stderr += text;
  });
  try {
    await waitForListening(child, () => stderr, port);
  } catch (error) {
    child.kill('SIGKILL');
    await rm(directory, { recursive: true, force: true });
    throw error;
  }

  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    username,
    password,
    permittedPorts,
    hostKeyLine,
    log: () => stderr,
    dropConnections: () => killConnections(child),
    async stop() {
      if (stopped) return;
      stopped = true;
      // sshd's per-connection children outlive the listener: end them first, by pid.
      killConnections(child);
      await killAndWait(child);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function ensureUser(username: string, password: string): void {
  if (spawnSync('id', ['-u', username]).status !== 0) {
    const created = spawnSync('useradd', ['-m', '-s', '/bin/sh', username], { encoding: 'utf8' });
    // Status 9: another test file created the user at the same moment.
    if (created.status !== 0 && created.status !== 9) {
      throw new Error(`useradd ${username} failed: ${created.stderr}`);
    }
  }
  const changed = spawnSync('chpasswd', [], { input: `${username}:${password}\n`, encoding: 'utf8' });
  if (changed.status !== 0) throw new Error(`chpasswd failed: ${changed.stderr}`);
}

function waitForListening(child: ChildProcess, stderr: () => string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => finish(new Error(`sshd did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${stderr()}`)),
      START_TIMEOUT_MS,
    );
    const onData = () => {
      if (stderr().includes(`Server listening on 127.0.0.1 port ${port}`)) finish();
    };
    const onExit = (code: number | null) =>
      finish(new Error(`sshd exited (${code}) before listening:\n${stderr()}`));
    function finish(error?: Error) {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    }
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

function killConnections(listener: ChildProcess): void {
  if (listener.pid === undefined) return;
  // Each connection is a privileged child and its unprivileged child, which holds the socket: kill both.
  const children = listChildren(listener.pid);
  const descendants = [...children, ...children.flatMap(listChildren)];
  for (const pid of descendants) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: the connection ended on its own.
    }
  }
}

function listChildren(pid: number): number[] {
  const listed = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).stdout;
  return listed.split(/\s+/).filter(Boolean).map(Number);
}

function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function runChecked(command: string, args: string[]): Promise<void> {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    return Promise.reject(new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`));
  }
  return Promise.resolve();
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function findFreePortRange(count: number): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = 20_000 + Math.floor(Math.random() * 30_000);
    const ports = Array.from({ length: count }, (_, index) => first + index);
    const free = await Promise.all(ports.map(isPortFree));
    if (free.every(Boolean)) return ports;
  }
  throw new Error(`no ${count} consecutive free ports found on 127.0.0.1`);
}
