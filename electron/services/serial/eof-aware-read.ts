import { read as readFile } from 'node:fs';
import { promisify } from 'node:util';
import type { BindingPortInterface } from './binding-types';

const readAsync = promisify(readFile);

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
 * tight loop and never reports the disconnect (node-serialport issues #115, #2323). This read does what
 * bindings-cpp does (wait for the poller on EAGAIN) but treats 0 bytes as the end of the line. Other ports keep
 * their own read.
 */
export function createPortReader(
  port: BindingPortInterface,
): (buffer: Buffer, offset: number, length: number) => Promise<{ buffer: Buffer; bytesRead: number }> {
  if (!isUnixPort(port)) return (buffer, offset, length) => port.read(buffer, offset, length);
  return async (buffer, offset, length) => {
    for (;;) {
      const fd = port.fd;
      if (!port.isOpen || fd === null) throw createCanceledError();
      try {
        const { bytesRead } = await readAsync(fd, buffer, offset, length, null);
        if (bytesRead === 0) {
          throw Object.assign(new Error('the line was hung up (adapter unplugged or other end closed)'), {
            code: 'EOF',
            disconnect: true,
          });
        }
        return { buffer, bytesRead };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' && code !== 'EWOULDBLOCK' && code !== 'EINTR') throw error;
        if (!port.isOpen) throw createCanceledError();
        await new Promise<void>((resolve, reject) =>
          port.poller.once('readable', (pollError) => (pollError ? reject(pollError) : resolve())),
        );
      }
    }
  };
}
