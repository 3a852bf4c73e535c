import { describeIssues, summarizeIssues } from '../electron/shared/api/validation';
import { describeFixture } from './fixture';
import { describeRelay, startSimulator } from './index';
import { attachSerialConsole, parseSerialAttachment, type AttachedSerialConsole } from './serial';
import { SimulatorSettingsSchema, type SimulatorSettingsInput } from './options';
import { createTenant } from './tenant';
import { parseScenarioFlag, SCENARIO_FAULTS, type ScenarioSpec } from './scenarios';
import { SYSTEM_CLOCK } from '../electron/shared/clock';

/** Exit status for bad flags. */
const USAGE_ERROR = 2;

const FLAGS: Record<
  string,
  { key: keyof SimulatorSettingsInput; kind: 'int' | 'number' | 'string'; help: string }
> = {
  '--port': { key: 'port', kind: 'int', help: 'TCP port (0 = any free port)' },
  '--host': { key: 'host', kind: 'string', help: 'loopback address to listen on (default 127.0.0.1)' },
  '--seed': { key: 'seed', kind: 'int', help: 'seed of the demo tenant (default 1)' },
  '--gateways': { key: 'gateways', kind: 'int', help: 'number of gateways (default 24)' },
  '--devices': { key: 'devices', kind: 'int', help: 'number of devices (default 200)' },
  '--customers': { key: 'customers', kind: 'int', help: 'top-level customers, at least 2 (default 2)' },
  '--latency-ms': { key: 'latencyMs', kind: 'int', help: 'extra delay before every answer (default 0)' },
  '--fail-rate': { key: 'failRate', kind: 'number', help: 'fraction of requests answered 503 (default 0)' },
  '--drop-rate': {
    key: 'dropRate',
    kind: 'number',
    help: 'fraction of requests whose connection is cut (default 0)',
  },
  '--drop-after-rate': {
    key: 'dropAfterRate',
    kind: 'number',
    help: 'fraction of gateway writes carried out, then cut unanswered (default 0)',
  },
  '--access-ttl': { key: 'accessTtl', kind: 'int', help: 'access token lifetime, seconds (default 7200)' },
  '--refresh-ttl': {
    key: 'refreshTtl',
    kind: 'int',
    help: 'refresh token lifetime, seconds (default 86400)',
  },
  '--command-timeout-ms': {
    key: 'commandTimeoutMs',
    kind: 'int',
    help: 'wait before 408 from an offline gateway (default 10000)',
  },
  '--reboot-ms': {
    key: 'rebootMs',
    kind: 'int',
    help: 'how long a reboot keeps a gateway offline (default 30000)',
  },
  '--upgrade-ms': {
    key: 'upgradeMs',
    kind: 'int',
    help: 'download + install time of an upgrade (default 20000)',
  },
  '--relay-port': {
    key: 'relayPort',
    kind: 'int',
    help: 'port of the SSH relay with --ssh (default any free port)',
  },
  '--offline-fraction': {
    key: 'offlineFraction',
    kind: 'number',
    help: 'fraction of gateways offline from the start (default 0.1)',
  },
};

function usage(): string {
  const lines = Object.entries(FLAGS).map(([flag, { help }]) => `  ${flag.padEnd(22)} ${help}`);
  return [
    'Usage: npm run simulator -- [flags]',
    ...lines,
    '  --ssh                  also start the SSH relay and a shell per gateway (reverseSsh)',
    "  --serial <id>=<path>   link a pseudo-terminal at <path> to gateway <id>'s serial console (repeatable)",
    `  --scenario [<id>=]<faults>  faults for every gateway or one (comma-separated, repeatable): ${SCENARIO_FAULTS.join(', ')}`,
    '  --print-fixture        print the demo tenant as JSON and exit',
    '  --help                 show this help',
  ].join('\n');
}

function fail(message: string): never {
  process.stderr.write(`oam-simulator: ${message}\n${usage()}\n`);
  process.exit(USAGE_ERROR);
}

/** Reads the command line into settings; a bad flag ends the process with a message and status 2. */
function parseArguments(argv: string[]): {
  settings: SimulatorSettingsInput;
  printFixture: boolean;
  serial: { gatewayId: string; linkPath: string }[];
  scenarios: ScenarioSpec;
} {
  const settings: Record<string, unknown> = {};
  const scenarioValues: string[] = [];
  const serial: { gatewayId: string; linkPath: string }[] = [];
  let printFixture = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (argument === '--help' || argument === '-h') {
      process.stdout.write(`${usage()}\n`);
      process.exit(0);
    }
    if (argument === '--ssh') {
      settings.ssh = true;
      continue;
    }
    if (argument === '--print-fixture') {
      printFixture = true;
      continue;
    }
    if (argument === '--serial' || argument.startsWith('--serial=')) {
      const value = argument === '--serial' ? argv[++index] : argument.slice('--serial='.length);
      if (value === undefined) fail('--serial needs a value');
      try {
        serial.push(parseSerialAttachment(value));
      } catch (error) {
        fail((error as Error).message);
      }
      continue;
    }
    if (argument === '--scenario' || argument.startsWith('--scenario=')) {
      const value = argument === '--scenario' ? argv[++index] : argument.slice('--scenario='.length);
      if (value === undefined) fail('--scenario needs a value');
      scenarioValues.push(value);
      continue;
    }
    const [flag, inline] = argument.includes('=')
      ? (argument.split(/=(.*)/s, 2) as [string, string])
      : [argument, undefined];
    const spec = FLAGS[flag];
    if (!spec) fail(`unknown flag ${flag}`);
    const raw = inline ?? argv[++index];
    if (raw === undefined || (inline === undefined && raw.startsWith('--'))) fail(`${flag} needs a value`);
    if (spec.kind === 'string') settings[spec.key] = raw;
    else {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (spec.kind === 'int' && !Number.isInteger(value))) {
        fail(`${flag} must be ${spec.kind === 'int' ? 'a whole number' : 'a number'}, not "${raw}"`);
      }
      settings[spec.key] = value;
    }
  }
  const parsed = SimulatorSettingsSchema.safeParse(settings);
  if (!parsed.success) fail(summarizeIssues(describeIssues(parsed.error)));
  let scenarios: ScenarioSpec = {};
  try {
    scenarios = parseScenarioFlag(scenarioValues);
  } catch (error) {
    fail((error as Error).message);
  }
  return { settings: settings as SimulatorSettingsInput, printFixture, serial, scenarios };
}

async function main(): Promise<void> {
  const { settings, printFixture, serial, scenarios } = parseArguments(process.argv.slice(2));
  if (printFixture) {
    const resolved = SimulatorSettingsSchema.parse(settings);
    const tenant = createTenant({
      seed: resolved.seed,
      gateways: resolved.gateways,
      devices: resolved.devices,
      customers: resolved.customers,
      offlineFraction: resolved.offlineFraction,
      nowMs: SYSTEM_CLOCK.now(),
    });
    process.stdout.write(
      `${JSON.stringify(describeFixture(tenant, describeRelay(resolved.relayPort || null)), null, 2)}\n`,
    );
    return;
  }
  let simulator;
  try {
    simulator = await startSimulator({ ...settings, scenarios });
  } catch (error) {
    process.stderr.write(`oam-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.stdout.write(`OAM simulator listening on ${simulator.url}\n`);
  if (simulator.relay) {
    const { host, port, username, password } = simulator.relay;
    process.stdout.write(`SSH relay on ${host}:${port} (user ${username}, password ${password})\n`);
  }
  process.stdout.write('Demo accounts:\n');
  for (const account of simulator.fixture.accounts) {
    process.stdout.write(`  ${account.username.padEnd(24)} ${account.password.padEnd(14)} ${account.role}\n`);
  }
  const consoles: AttachedSerialConsole[] = [];
  for (const { gatewayId, linkPath } of serial) {
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.id === gatewayId);
    if (!gateway) {
      process.stderr.write(`oam-simulator: --serial: no gateway ${gatewayId} in the demo tenant\n`);
      continue;
    }
    try {
      consoles.push(await attachSerialConsole({ ...simulator.serialConsoleOf(gatewayId), linkPath }));
      process.stdout.write(
        `Serial console of ${gatewayId} on ${linkPath} (root / ${gateway.rootPassword})\n`,
      );
    } catch (error) {
      process.stderr.write(`oam-simulator: --serial ${gatewayId}: ${(error as Error).message}\n`);
    }
  }
  const stop = () => {
    void Promise.all(consoles.map((attached) => attached.close()))
      .then(() => simulator.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
