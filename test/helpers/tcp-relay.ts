import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on loopback to a server (the simulator) that can stop — refusing connections and cutting open
 * ones — and start again on the same port: the server "goes away" and comes back without losing its state (the
 * simulator's token secret lives only as long as its process).
 */
export class TcpRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** The relay's port (0 until the first start; the same port after a stop and start). */
  port = 0;
  constructor(private readonly targetPort: number) {}

  /** Accepts connections again (on the same port after the first start). */
  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Refuses new connections and cuts the open ones. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
