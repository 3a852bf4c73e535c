import type { ChildProcess } from 'node:child_process';

/** Sends SIGTERM and resolves once the process has exited; at once when it already has. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
