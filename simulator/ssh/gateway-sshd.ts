import ssh2 from 'ssh2';
import type { Connection, ServerChannel, Session } from 'ssh2';
import type { HostKey } from './host-keys';
import { equalSecrets } from './secrets';
import { SshListener } from './ssh-listener';

/** How a shell talks to its SSH channel (the GatewayShell `io` contract). */
export interface ShellIo {
  /** Resolves when the channel took the chunk (`write()` returned true, or after 'drain'). */
  write(chunk: string): Promise<void>;
  exit(code: number): void;
}

/** The part of GatewayShell the sshd drives; `resize` is optional (a shell may ignore the size). */
export interface InteractiveShell {
  /** Printed before each command; `exec` uses it to see where a command's output ends. */
  readonly prompt: string;
  start(): Promise<void>;
  input(data: string): void;
  /** Ends the shell because the transport went away (stops a flood). */
  stop(): void;
  resize?(cols: number, rows: number): void;
}

/** Builds a fresh shell for one SSH session. */
export type ShellFactory = (io: ShellIo) => InteractiveShell;

/** How a simulated gateway's sshd is set up. */
export interface GatewaySshdOptions {
  hostKey: HostKey;
  rootPassword: string;
  createShell: ShellFactory;
}

/** Shell output that may wait in the channel beyond the SSH window (a pty's buffer is a few KB). */
export const SHELL_OUTPUT_BUFFER_BYTES = 64 * 1024;

/** The user every gateway shell logs in as (docs/api.md, "Gateway shell"). */
export const GATEWAY_USER = 'root';

/**
 * A simulated gateway's sshd on 127.0.0.1: `root` logs in with the gateway's password and gets a shell
 * (with or without a PTY; window changes reach the shell) or runs one command with `exec` — the
 * command is typed into a fresh shell and exec returns what it printed between the echoed command
 * line and the next prompt, so exec and an interactive user see the same output.
 */
export class GatewaySshd {
  private constructor(
    private readonly listener: SshListener,
    private readonly connections: Set<Connection>,
  ) {}

  /** Starts listening on 127.0.0.1:0 and resolves once it listens. */
  static async start(options: GatewaySshdOptions): Promise<GatewaySshd> {
    const connections = new Set<Connection>();
    const server = new ssh2.Server({ hostKeys: [options.hostKey.privateKey] }, (connection) => {
      connections.add(connection);
      connection.on('close', () => connections.delete(connection));
      serveConnection(connection, options);
    });
    return new GatewaySshd(await SshListener.listen(server, 0), connections);
  }

  /** The port sshd listens on (127.0.0.1). */
  get port(): number {
    return this.listener.port;
  }

  /** How many SSH connections are open right now. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Cuts every connection without an SSH goodbye (a reboot, a dropped link). */
  dropConnections(): void {
    this.listener.dropConnections();
  }

  /** Stops listening and cuts every connection. */
  async close(): Promise<void> {
    await this.listener.close();
  }
}

function serveConnection(connection: Connection, options: GatewaySshdOptions): void {
  connection.on('error', () => undefined);
  connection.on('authentication', (context) => {
    if (
      context.method === 'password' &&
      context.username === GATEWAY_USER &&
      equalSecrets(context.password, options.rootPassword)
    ) {
      context.accept();
    } else {
      context.reject(['password']);
    }
  });
  connection.on('ready', () => {
    connection.on('session', (acceptSession) => serveSession(acceptSession(), options.createShell));
    connection.on('tcpip', (_accept, reject) => reject());
    connection.on('request', (_accept, reject) => reject?.());
  });
}

function serveSession(session: Session, createShell: ShellFactory): void {
  let size = { cols: 80, rows: 24 };
  let shell: InteractiveShell | undefined;
  session.on('pty', (accept, _reject, info) => {
    size = { cols: info.cols, rows: info.rows };
    accept?.();
  });
  session.on('window-change', (accept, _reject, info) => {
    size = { cols: info.cols, rows: info.rows };
    shell?.resize?.(size.cols, size.rows);
    accept?.();
  });
  session.on('env', (accept) => accept?.());
  session.on('shell', (accept) => {
    const channel = accept();
    shell = attachShell(channel, createShell);
    shell.resize?.(size.cols, size.rows);
    void shell.start();
  });
  session.on('exec', (accept, _reject, info) => {
    const channel = accept();
    shell = attachShell(channel, createShell, 'exec');
    shell.input(`${info.command}\r`);
  });
  session.on('subsystem', (_accept, reject) => reject());
}

function attachShell(
  channel: ServerChannel,
  createShell: ShellFactory,
  mode: 'shell' | 'exec' = 'shell',
): InteractiveShell {
  let isOpen = true;
  const finish = (code: number) => {
    if (!isOpen) return;
    isOpen = false;
    channel.exit(code);
    channel.end();
  };
  // Like a pty, the shell may run ahead of the SSH window by only a little: ssh2's channel buffers up to
  // 2 MB before write() returns false, which would put megabytes ahead of every keystroke echo.
  let resumeShell: (() => void) | undefined;
  const onChunkFlushed = () => {
    if (resumeShell && channel.writableLength <= SHELL_OUTPUT_BUFFER_BYTES) {
      const resume = resumeShell;
      resumeShell = undefined;
      resume();
    }
  };
  channel.once('close', () => resumeShell?.());
  const send = (chunk: string): Promise<void> => {
    if (!isOpen) return Promise.reject(new Error('channel closed'));
    if (chunk === '') return Promise.resolve();
    channel.write(chunk, onChunkFlushed);
    if (channel.writableLength <= SHELL_OUTPUT_BUFFER_BYTES) return Promise.resolve();
    // GatewayShell writes one chunk at a time, so there is never more than one waiter.
    return new Promise((resolve) => {
      resumeShell = resolve;
    });
  };
  let execFilter: ExecOutputFilter | undefined;
  const shell = createShell({
    write: (chunk) => {
      if (!execFilter) return send(chunk);
      const { output, isDone } = execFilter.push(chunk);
      const sent = send(output);
      if (isDone) {
        void sent.then(() => {
          shell.stop();
          finish(0);
        });
      }
      return sent;
    },
    exit: finish,
  });
  if (mode === 'exec') execFilter = new ExecOutputFilter(shell.prompt);
  channel.on('close', () => {
    isOpen = false;
    shell.stop();
  });
  channel.setEncoding('utf8');
  channel.on('data', (data: string) => shell.input(data));
  return shell;
}

/**
 * Cuts a shell's output down to what one command printed: drops the echoed command line, passes the
 * output through as it streams and stops at the next prompt (held back until it is complete).
 */
export class ExecOutputFilter {
  private isEchoDone = false;
  private isDone = false;
  private pending = '';

  constructor(private readonly prompt: string) {}

  /** Feeds shell output; returns what may be sent now and whether the command has finished. */
  push(chunk: string): { output: string; isDone: boolean } {
    if (this.isDone) return { output: '', isDone: true };
    let text = this.pending + chunk;
    this.pending = '';
    if (!this.isEchoDone) {
      const lineEnd = text.indexOf('\r\n');
      if (lineEnd < 0) return { output: '', isDone: false };
      this.isEchoDone = true;
      text = text.slice(lineEnd + 2);
    }
    const promptAt = text.indexOf(this.prompt);
    if (promptAt >= 0) {
      this.isDone = true;
      return { output: text.slice(0, promptAt), isDone: true };
    }
    const keep = longestPromptPrefixAtEnd(text, this.prompt);
    this.pending = text.slice(text.length - keep);
    return { output: text.slice(0, text.length - keep), isDone: false };
  }
}

function longestPromptPrefixAtEnd(text: string, prompt: string): number {
  for (let length = Math.min(prompt.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(prompt.slice(0, length))) return length;
  }
  return 0;
}
