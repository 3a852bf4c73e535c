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
  start(): Promise<void>;
  input(data: string): void;
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

/** The user every gateway shell logs in as (DESIGN §4). */
export const GATEWAY_USER = 'root';

/**
 * A simulated gateway's sshd on 127.0.0.1: `root` logs in with the gateway's password and gets a shell
 * (with or without a PTY; window changes reach the shell) or runs one command with `exec` — the
 * command is typed into a fresh shell followed by `exit`, so exec sees exactly what an interactive
 * user would.
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
    shell = attachShell(channel, createShell);
    shell.input(`${info.command}\r`);
    shell.input('exit\r');
  });
  session.on('subsystem', (_accept, reject) => reject());
}

function attachShell(channel: ServerChannel, createShell: ShellFactory): InteractiveShell {
  let isOpen = true;
  channel.on('close', () => {
    isOpen = false;
  });
  const shell = createShell({
    write(chunk) {
      if (!isOpen) return Promise.reject(new Error('channel closed'));
      if (channel.write(chunk)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const onDrain = () => {
          channel.off('close', onClose);
          resolve();
        };
        const onClose = () => {
          channel.off('drain', onDrain);
          reject(new Error('channel closed'));
        };
        channel.once('drain', onDrain);
        channel.once('close', onClose);
      });
    },
    exit(code) {
      if (!isOpen) return;
      channel.exit(code);
      channel.end();
    },
  });
  channel.setEncoding('utf8');
  channel.on('data', (data: string) => shell.input(data));
  return shell;
}
