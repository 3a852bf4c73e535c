import type { Log } from './field-kit-services';

/** The part of `process` that reports faults no caller handled. */
export interface FaultSource {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  off(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  off(event: 'uncaughtException', listener: (error: Error) => void): unknown;
}

/**
 * Logs an unhandled rejection or an uncaught exception instead of letting it end the process: one bad call (a
 * hostile answer, a malformed message) must not take the open terminals and the session down with it. Node
 * exits on either by default; a listener replaces that. Returns a function that removes the listeners.
 */
export function logProcessFaults(source: FaultSource, log: Log): () => void {
  const onRejection = (reason: unknown) => safeLog(log, 'unhandled rejection (kept running)', reason);
  const onException = (error: Error) => safeLog(log, 'uncaught exception (kept running)', error);
  source.on('unhandledRejection', onRejection);
  source.on('uncaughtException', onException);
  return () => {
    source.off('unhandledRejection', onRejection);
    source.off('uncaughtException', onException);
  };
}

function safeLog(log: Log, message: string, error: unknown): void {
  try {
    log.error(message, error);
  } catch {
    // The log itself failed (a closed stderr): there is nowhere left to say it.
  }
}
