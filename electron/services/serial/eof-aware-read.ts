import { readSync } from 'node:fs';
import type { BindingPortInterface } from '../../shared/serial/binding-types';

/**
 * After this many bytes read without waiting for the poller, the next read first lets the event loop run: a port
 * that always has data must not hold off timers, sockets and acknowledgements.
 */
const MAX_BYTES_BETWEEN_YIELDS = 256 * 1024;

/** What a Linux or macOS port of @serialport/bindings-cpp exposes: its descriptor and its poller. */
interface UnixPort {
  fd: number | null;
  readonly isOpen: boolean;
  poller: { once(event: 'readable', callback: (error: Error | null) => void): unknown };
}

function isUnixPort(port: BindingPortInterface): port is BindingPortInterface & UnixPort {
  const candidate = port as Partial<UnixPort>;
  return typeof candidate.fd === 'number' && typeof candidate.poller?.once === 'function';
}

function createCanceledError(): Error {
  return Object.assign(new Error('Port is not open'), { canceled: true });
}

/**
 * Returns the read function to use for a port. On Linux and macOS, once a USB adapter is unplugged (or a pty's
 * other end closes) the tty is hung up and read() returns 0 bytes forever; bindings-cpp retries 0-byte reads in a
 * tight loop and never reports the disconnect (node-serialport issues #115, #2323). This read treats 0 bytes as the
 * end of the line, and waits for the poller on EAGAIN as bindings-cpp does. Other ports keep their own read.
 *
 * It reads synchronously: bindings-cpp opens the descriptor O_NONBLOCK, so read() returns at once with what the
 * tty holds, or EAGAIN. A tty hands over only a few kB a read, and a trip through libuv's thread pool for each, as
 * bindings-cpp makes, costs a flood CPU and speed (docs/adr/0003-synchronous-serial-reads.md).
 */
export function createPortReader(port: BindingPortInterface): BindingPortInterface['read'] {
  if (!isUnixPort(port)) return (buffer, offset, length) => port.read(buffer, offset, length);
  let bytesSinceYield = 0;
  return async (buffer, offset, length) => {
    if (bytesSinceYield >= MAX_BYTES_BETWEEN_YIELDS) {
      bytesSinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    for (;;) {
      const fd = port.fd;
      if (!port.isOpen || fd === null) throw createCanceledError();
      let bytesRead: number;
      try {
        bytesRead = readSync(fd, buffer, offset, length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK' && code !== 'EINTR') throw error;
        if (code === 'EINTR') continue;
        bytesSinceYield = 0;
        await new Promise<void>((resolve, reject) =>
          port.poller.once('readable', (pollError) => (pollError ? reject(pollError) : resolve())),
        );
        continue;
      }
      if (bytesRead === 0) {
        throw Object.assign(new Error('the line was hung up (adapter unplugged or other end closed)'), {
          code: 'EOF',
          disconnect: true,
        });
      }
      bytesSinceYield += bytesRead;
      return { buffer, bytesRead };
    }
  };
}
