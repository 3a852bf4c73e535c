import { join } from 'node:path';
import type { Log } from '../app';
import { appendPrivateFile, ensurePrivateFolder, tightenFile } from '../services/files/private-files';
import { SYSTEM_CLOCK, type Clock } from '../shared/clock';

/** The main process's log file name inside the logs folder. */
export const LOG_FILE = 'main.log';

/**
 * Appends timestamped lines to `<logsDir>/main.log`, in order, never throwing (a full disk must not crash the
 * app). Callers pass no secrets: services log codes and endpoint names, not tokens or passwords. The folder is
 * 0700 and the file 0600, both tightened when an earlier version left them looser; a `main.log` that is a
 * symbolic link or not a regular file is never written through.
 */
export function createFileLog(logsDir: string, clock: Pick<Clock, 'now'> = SYSTEM_CLOCK): Log {
  const path = join(logsDir, LOG_FILE);
  let queue: Promise<void> = ensurePrivateFolder(logsDir)
    .then(() => tightenFile(path))
    .catch(() => undefined);
  const write = (line: string) => {
    queue = queue
      .then(() => appendPrivateFile(path, `${new Date(clock.now()).toISOString()} ${line}\n`))
      .catch(() => undefined);
  };
  return {
    info: (message) => write(`INFO ${message}`),
    error: (message, error) =>
      write(
        `ERROR ${message}${error instanceof Error ? `: ${error.stack ?? error.message}` : error ? `: ${String(error)}` : ''}`,
      ),
  };
}
