import { StringDecoder } from 'node:string_decoder';
import type { BindingPortInterface } from '../../electron/shared/serial/binding-types';
import { FileReceiver, type ReceiverProtocol } from './file-receiver';
import { SerialConsole, type SerialConsoleOptions } from './serial-console';

const READ_BUFFER_BYTES = 4_096;

/** A console running on an open port; `stop()` ends it and closes the port. */
export interface ConsoleOnPort {
  readonly console: SerialConsole;
  /** Resolves when the port stopped delivering input (closed, or its other end went away). */
  readonly finished: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs a SerialConsole on an open binding port: reads keystrokes in a loop and writes output one chunk at a time,
 * waiting for each write to reach the OS (so a flood is paced by the line, not buffered in memory).
 */
export function runConsoleOnPort(
  port: BindingPortInterface,
  options: Omit<SerialConsoleOptions, 'io'>,
): ConsoleOnPort {
  let writes: Promise<void> = Promise.resolve();
  // The binding accepts one write at a time.
  const writeBytes = (bytes: Uint8Array) => {
    writes = writes.then(() => port.write(Buffer.from(bytes)));
    return writes;
  };
  /** While `rb`/`rx` runs, the line's bytes are the file's, not keystrokes. */
  let receiver: FileReceiver | undefined;
  const receiveFile = (protocol: ReceiverProtocol) => {
    const started = new FileReceiver({ protocol, write: writeBytes });
    receiver = started;
    return started.done.finally(() => {
      if (receiver === started) receiver = undefined;
    });
  };
  const console = new SerialConsole({
    ...options,
    shellContext: { ...options.shellContext, receiveFile },
    io: { write: (chunk) => writeBytes(Buffer.from(chunk, 'utf8')) },
  });
  const finished = (async () => {
    const decoder = new StringDecoder('utf8');
    const buffer = Buffer.alloc(READ_BUFFER_BYTES);
    while (port.isOpen) {
      try {
        const { bytesRead } = await port.read(buffer, 0, buffer.length);
        if (receiver) receiver.input(buffer.subarray(0, bytesRead));
        else console.input(decoder.write(buffer.subarray(0, bytesRead)));
      } catch {
        break;
      }
    }
    receiver?.stop();
    console.stop();
  })();
  void console.start();
  return {
    console,
    finished,
    async stop() {
      console.stop();
      if (port.isOpen) await port.close().catch(() => {});
      await finished;
    },
  };
}
