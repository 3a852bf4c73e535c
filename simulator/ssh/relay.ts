import ssh2 from 'ssh2';
import type { Connection } from 'ssh2';
import type { HostKey } from './host-keys';
import { equalSecrets } from './secrets';
import { SshListener } from './ssh-listener';
import { joinStreams } from './stream-pipe';

/** The only address a relay binds to and forwards to. */
export const LOOPBACK = '127.0.0.1';

/** Ports a gateway may ask the relay to listen on, inclusive (OpenSSH `PermitListen`). */
export interface PortRange {
  first: number;
  last: number;
}

/** Unprivileged ports, what an unprivileged OpenSSH user may forward by default. */
export const DEFAULT_PERMITTED_PORTS: PortRange = { first: 1024, last: 65_535 };

/** How the simulator's relay is set up. */
export interface SshRelayOptions {
  hostKey: HostKey;
  username: string;
  password: string;
  /** 0 or absent: a free port. */
  port?: number;
  permittedPorts?: PortRange;
}

interface Tunnel {
  connection: Connection;
  port: number;
}

/**
 * A reverse-SSH relay like a locked-down OpenSSH `sshd`: password login for one user, remote forwards
 * only on 127.0.0.1 and only on permitted ports, local forwards only to tunnels that exist, no shells.
 * Tunnels are virtual (no TCP listener): a technician's `direct-tcpip` to 127.0.0.1:<port> is handed
 * to the gateway that holds <port> as a `forwarded-tcpip` channel.
 */
export class SshRelay {
  readonly host = LOOPBACK;
  readonly username: string;
  readonly password: string;
  readonly permittedPorts: PortRange;
  readonly hostKey: HostKey;
  private readonly tunnels = new Map<number, Tunnel>();
  private listener: SshListener | undefined;

  private constructor(options: SshRelayOptions) {
    this.username = options.username;
    this.password = options.password;
    this.permittedPorts = options.permittedPorts ?? DEFAULT_PERMITTED_PORTS;
    this.hostKey = options.hostKey;
  }

  /** Starts listening on 127.0.0.1 (the given port, or a free one) and resolves once it listens. */
  static async start(options: SshRelayOptions): Promise<SshRelay> {
    const relay = new SshRelay(options);
    const server = new ssh2.Server({ hostKeys: [options.hostKey.privateKey] }, (connection) =>
      relay.accept(connection),
    );
    relay.listener = await SshListener.listen(server, options.port ?? 0);
    return relay;
  }

  /** The port the relay listens on. */
  get port(): number {
    return this.listener?.port ?? 0;
  }

  /** Whether a gateway currently holds a remote forward on `port`. */
  hasTunnel(port: number): boolean {
    return this.tunnels.has(port);
  }

  /** Ports that currently have a tunnel, ascending. */
  tunnelPorts(): number[] {
    return [...this.tunnels.keys()].sort((left, right) => left - right);
  }

  /** Fault injection: cuts every client connection (technicians and gateways) without a goodbye. */
  dropConnections(): void {
    this.listener?.dropConnections();
  }

  /** Fault injection: every current connection goes silent without closing (keepalive must notice). */
  freezeConnections(): void {
    this.listener?.freezeConnections();
  }

  /** Stops listening and cuts every connection; resolves when the listener is closed. */
  async close(): Promise<void> {
    await this.listener?.close();
  }

  private accept(connection: Connection): void {
    connection.on('error', () => undefined);
    connection.on('authentication', (context) => {
      if (
        context.method === 'password' &&
        context.username === this.username &&
        equalSecrets(context.password, this.password)
      ) {
        context.accept();
      } else {
        context.reject(['password']);
      }
    });
    connection.on('ready', () => this.serve(connection));
    connection.on('close', () => {
      for (const [port, tunnel] of this.tunnels) {
        if (tunnel.connection === connection) this.tunnels.delete(port);
      }
    });
  }

  private serve(connection: Connection): void {
    connection.on('request', (accept, reject, name, info) => {
      if (name === 'tcpip-forward') {
        if (this.mayListen(info.bindAddr, info.bindPort)) {
          this.tunnels.set(info.bindPort, { connection, port: info.bindPort });
          accept?.();
        } else {
          reject?.();
        }
      } else if (name === 'cancel-tcpip-forward') {
        if (this.tunnels.get(info.bindPort)?.connection === connection) {
          this.tunnels.delete(info.bindPort);
          accept?.();
        } else {
          reject?.();
        }
      } else {
        reject?.();
      }
    });
    connection.on('tcpip', (accept, reject, info) => {
      const tunnel = this.tunnels.get(info.destPort);
      if (!isLoopback(info.destIP) || !tunnel) {
        reject();
        return;
      }
      tunnel.connection.forwardOut(LOOPBACK, tunnel.port, info.srcIP, info.srcPort, (error, upstream) => {
        if (error) {
          reject();
          return;
        }
        joinStreams(accept(), upstream);
      });
    });
    connection.on('session', (_accept, reject) => reject());
  }

  private mayListen(bindAddress: string, port: number): boolean {
    return (
      bindAddress === LOOPBACK &&
      Number.isInteger(port) &&
      port >= this.permittedPorts.first &&
      port <= this.permittedPorts.last &&
      !this.tunnels.has(port)
    );
  }
}

function isLoopback(address: string): boolean {
  return address === LOOPBACK || address === 'localhost';
}
