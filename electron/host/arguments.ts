import { HOST_ADDRESS } from './host-server';
import type { StartHostOptions } from './start-host';

/** The host's usage text. */
export const USAGE = `Usage: npm run host -- [flags]
  --port N            port on ${HOST_ADDRESS} (default: any free port)
  --demo              with no profile configured, run the demo server in-process and preselect it
  --data-dir DIR      app data folder (default: $FIELDKIT_DATA_DIR or .fieldkit-data/)
  --no-build          serve out/renderer as it is, even when older than renderer/
  --host ${HOST_ADDRESS}      the only address accepted
  With --demo, simulator flags pass through (e.g. --access-ttl 3 --refresh-ttl 20).`;

/** A bad command line; the message says which flag and why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

function fail(message: string): never {
  throw new UsageError(message);
}

/** Reads the command line into host options; throws UsageError naming a bad flag. `--help` sets `help`. */
export function parseHostArguments(
  argv: readonly string[],
): StartHostOptions & { build: boolean; help: boolean } {
  const options: StartHostOptions & { build: boolean; help: boolean } = { build: true, help: false };
  const simulator: Record<string, number | string | boolean> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const [flag, inline] = argument.includes('=')
      ? (argument.split(/=(.*)/s, 2) as [string, string])
      : [argument, undefined];
    const takeValue = (): string => {
      const value = inline ?? argv[++index];
      if (value === undefined || (inline === undefined && value.startsWith('--')))
        fail(`${flag} needs a value`);
      return value;
    };
    if (flag === '--help' || flag === '-h') {
      options.help = true;
    } else if (flag === '--demo') options.demo = true;
    else if (flag === '--no-build') options.build = false;
    else if (flag === '--port') {
      const port = Number(takeValue());
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        fail('--port must be a whole number 0 to 65535');
      options.port = port;
    } else if (flag === '--host') options.host = takeValue();
    else if (flag === '--data-dir') options.dataDir = takeValue();
    else if (flag.startsWith('--') && flag.length > 2) {
      const key = flag.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const next = inline ?? argv[index + 1];
      if (next === undefined || (inline === undefined && next.startsWith('--'))) {
        simulator[key] = true; // a switch such as --ssh
        continue;
      }
      const raw = takeValue();
      simulator[key] =
        raw === 'true' || raw === 'false'
          ? raw === 'true'
          : raw.trim() !== '' && Number.isFinite(Number(raw))
            ? Number(raw)
            : raw;
    } else fail(`unknown argument ${argument}`);
  }
  if (options.host !== undefined && options.host !== HOST_ADDRESS) {
    fail(`the browser host only listens on ${HOST_ADDRESS}; refusing --host ${options.host}`);
  }
  if (Object.keys(simulator).length > 0) {
    if (!options.demo) fail(`simulator flags (${Object.keys(simulator).join(', ')}) need --demo`);
    options.simulator = simulator;
  }
  return options;
}
