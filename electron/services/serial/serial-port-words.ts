import type { OpenOptions } from '../../shared/serial/binding-types';
import type { SerialOpenOptions } from './options';
import { t } from '../../shared/i18n';

/** The reason a session gives after the user disconnected it (serial:disconnect), in the language shown now. */
export function disconnectedByUser(): string {
  return t('terminals:serialDisconnectedByUser');
}

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
  if (/ENOENT|No such file/i.test(message)) return t('terminals:serialOpenNoPort', { path });
  if (/EACCES|Permission denied/i.test(message)) return t('terminals:serialOpenPermission', { path });
  if (/EBUSY|lock|Resource temporarily unavailable/i.test(message))
    return t('terminals:serialOpenBusy', { path });
  if (/Invalid parity/i.test(message)) return t('terminals:serialOpenParity', { path });
  if (/Invalid stop bits/i.test(message)) return t('terminals:serialOpenStopBits', { path });
  if (/baud/i.test(message)) return t('terminals:serialOpenBaud', { path, message });
  return t('terminals:serialOpenFailed', { path, message });
}

/**
 * Why a port that was open stopped, in words: the OS's own error (`bad file descriptor`, `EIO`) says little to a
 * technician whose USB adapter came out; it stays at the end for whoever reads the log.
 */
export function describeDisconnect(path: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /bad file descriptor|EBADF|EIO|ENXIO|ENODEV|No such device|Input\/output error/i.test(message)
    ? t('terminals:serialAdapterGone', { path, message })
    : t('terminals:serialDisconnected', { message });
}

/** A modem-control request (break, DTR, RTS) that failed, as the error a caller sees (`error` is its cause). */
export function controlError(
  key: 'terminals:serialBreakFailed' | 'terminals:serialSignalsFailed',
  error: unknown,
): Error {
  return new Error(t(key, { reason: describeControlError(error) }), { cause: error });
}

/** Why a modem-control request (break, DTR, RTS) failed, in words a technician can act on. */
function describeControlError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/Inappropriate ioctl|ENOTTY/i.test(message)) {
    return t('terminals:serialNoControlLines');
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
