import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stopChild } from './child-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LISTENING = /^OAM simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/;

/** A simulator running in its own process, as `npm run simulator` starts it. */
export interface SimulatorProcess {
  url: string;
  /** Every line it printed so far. */
  output: string[];
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `simulator/cli.ts` with the given flags (port 0 unless given) and resolves once it prints its
 * `OAM simulator listening on …` line. Rejects with its output if it exits first. `niceness` (1–19) runs it under
 * `nice`: it then gets only the CPU that the processes being measured leave.
 */
export function spawnSimulator(
  flags: string[] = [],
  options: { niceness?: number } = {},
): Promise<SimulatorProcess> {
  const args = flags.includes('--port') ? flags : ['--port', '0', ...flags];
  const command = [process.execPath, '--import', 'tsx', 'simulator/cli.ts', ...args];
  // `nice` execs the command, so the child's pid stays the simulator's.
  const [file, ...rest] = options.niceness ? ['nice', '-n', String(options.niceness), ...command] : command;
  const child = spawn(file!, rest, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = line.match(LISTENING);
      if (match) resolve({ url: match[1]!, output, child, stop });
    });
    child.once('exit', (code) =>
      reject(new Error(`simulator exited (${code}) before listening:\n${output.join('\n')}`)),
    );
  });
}
