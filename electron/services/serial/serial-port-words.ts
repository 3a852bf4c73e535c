import type { OpenOptions } from '../../shared/serial/binding-types';
import type { SerialOpenOptions } from './options';

/** The reason a session gives after the user disconnected it (serial:disconnect). */
export const DISCONNECTED_BY_USER =
  'Disconnected: the port is free for other programs. Reconnect to open it again.';

/** How a session looks for its adapter after it went away. */
export interface ReconnectPolicy {
  /** The wait between two looks at the system's port list (and tries to open the port found). */
  pollIntervalMs: number;
  /** After this long without success the session fails ("Gave up reconnecting: …"). */
  giveUpAfterMs: number;
}

/**
 * Default reconnect policy: a look every 250 ms, so a replugged adapter (which re-enumerates in about a second) is
 * open again well within 2 s of reappearing and the gateway's boot output is caught; gives up after 10 minutes.
 */
export const RECONNECT_POLICY_DEFAULT: ReconnectPolicy = {
  pollIntervalMs: 250,
  giveUpAfterMs: 10 * 60_000,
};

/** Turns a binding's open error into words a technician can act on. */
export function describeOpenError(path: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/ENOENT|No such file/i.test(message))
    return `Could not open ${path}: no such port (is the cable plugged in?)`;
  if (/EACCES|Permission denied/i.test(message)) {
    return `Could not open ${path}: permission denied (on Linux, add your user to the dialout group)`;
  }
  if (/EBUSY|lock|Resource temporarily unavailable/i.test(message)) {
    return `Could not open ${path}: it is in use by another program`;
  }
  if (/Invalid parity/i.test(message)) {
    return `Could not open ${path}: this system's serial driver does not support mark or space parity`;
  }
  if (/Invalid stop bits/i.test(message)) {
    return `Could not open ${path}: this system's serial driver does not support 1.5 stop bits`;
  }
  if (/baud/i.test(message)) return `Could not open ${path}: the adapter refused the baud rate (${message})`;
  return `Could not open ${path}: ${message}`;
}

/**
 * Why a port that was open stopped, in words: the OS's own error (`bad file descriptor`, `EIO`) says little to a
 * technician whose USB adapter came out; it stays at the end for whoever reads the log.
 */
export function describeDisconnect(path: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /bad file descriptor|EBADF|EIO|ENXIO|ENODEV|No such device|Input\/output error/i.test(message)
    ? `Disconnected: the adapter at ${path} went away (unplugged, or the gateway lost power; ${message})`
    : `Disconnected: ${message}`;
}

/** Why a modem-control request (break, DTR, RTS) failed, in words a technician can act on. */
export function describeControlError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/Inappropriate ioctl|ENOTTY/i.test(message)) {
    return 'this port has no modem control lines (a pseudo-terminal or a virtual port)';
  }
  return message;
}

/** The binding's open options for a port at `path` opened with the session's framing and flow control. */
export function toOpenOptions(path: string, options: SerialOpenOptions): OpenOptions {
  return {
    path,
    baudRate: options.baudRate,
    dataBits: options.dataBits,
    stopBits: options.stopBits,
    parity: options.parity,
    rtscts: options.flowControl === 'rts-cts',
    xon: options.flowControl === 'xon-xoff',
    xoff: options.flowControl === 'xon-xoff',
    lock: true,
  };
}
