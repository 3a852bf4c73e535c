// `npm run host -- [--port N] [--demo] [--data-dir DIR] [--no-build] [simulator flags in demo mode]`
// Prints exactly one stdout line, `Field Kit UI: http://127.0.0.1:<port>/?token=<token>`; logs go to stderr.
import { buildIfStale } from '../../build/stale.mjs';
import { parseHostArguments, USAGE, UsageError } from './arguments';
import { HostAddressError } from './host-server';
import { logProcessFaults } from '../app';
import { startHost, STDERR_LOG } from './start-host';

/** Exit status for bad flags. */
const USAGE_ERROR = 2;

async function main(): Promise<void> {
  logProcessFaults(process, STDERR_LOG);
  const { build, help, ...options } = parseHostArguments(process.argv.slice(2));
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (build) buildIfStale(['renderer'], (line) => STDERR_LOG.info(line));
  const host = await startHost(options);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void host.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Only now: whoever reads the URL may signal at once, and must find the handlers in place.
  process.stdout.write(`Field Kit UI: ${host.url}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof HostAddressError) {
    process.stderr.write(`field-kit host: ${error.message}\n${USAGE}\n`);
    process.exit(USAGE_ERROR);
  }
  STDERR_LOG.error('could not start', error);
  process.exit(1);
});
