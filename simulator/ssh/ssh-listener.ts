import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Server as Ssh2Server } from 'ssh2';

/** A TCP listener on 127.0.0.1 that hands each socket to an ssh2 `Server` and can cut them all. */
export class SshListener {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    /** The port it listens on. */
    readonly port: number,
  ) {}

  /** Listens on 127.0.0.1:`port` (0: a free port); resolves once listening, rejects if the port is taken. */
  static async listen(sshServer: Ssh2Server, port = 0): Promise<SshListener> {
    const sockets = new Set<Socket>();
    // TCP_NODELAY: with Nagle's algorithm, ssh2's small window adjustments and the tail of each burst waited for
    // delayed ACKs, and a flood through the relay crawled (docs/benchmarks.md, experiments kept).
    const server = createServer({ noDelay: true }, (socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      sshServer.injectSocket(socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new SshListener(server, sockets, (server.address() as AddressInfo).port);
  }

  /** Cuts every open connection without an SSH goodbye (a dropped link, for fault injection). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** Makes every open connection go silent (reads nothing, answers nothing) until closed: a link that died quietly. */
  freezeConnections(): void {
    for (const socket of this.sockets) {
      socket.pause();
      socket.removeAllListeners('data');
    }
  }

  /** Stops listening and cuts every connection; resolves once the listener is closed. */
  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
