import { z } from 'zod';
import {
  DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_REFRESH_TOKEN_TTL_SECONDS,
} from '../electron/shared/api/assumptions';

/** Hosts the simulator may listen on: loopback only (it has demo passwords and no TLS). */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'] as const;

const whole = (name: string) => z.int(`${name} must be a whole number`);

/** The simulator's settings (CLI flags in camelCase), each with its default. */
export const SimulatorSettingsSchema = z.strictObject({
  port: whole('port').min(0, 'port must be 0 to 65535').max(65535, 'port must be 0 to 65535').default(0),
  host: z
    .string()
    .refine((host) => (LOOPBACK_HOSTS as readonly string[]).includes(host), {
      error: `host must be a loopback address (${LOOPBACK_HOSTS.join(', ')})`,
    })
    .default('127.0.0.1'),
  seed: whole('seed').default(1),
  gateways: whole('gateways')
    .min(1, 'gateways must be at least 1')
    .max(100_000, 'gateways must be at most 100000')
    .default(24),
  devices: whole('devices')
    .min(0, 'devices must not be negative')
    .max(1_000_000, 'devices must be at most 1000000')
    .default(200),
  customers: whole('customers')
    .min(2, 'customers must be at least 2')
    .max(1_000, 'customers must be at most 1000')
    .default(2),
  latencyMs: whole('latency-ms').min(0).max(60_000, 'latency-ms must be at most 60000').default(0),
  failRate: z
    .number('fail-rate must be a number')
    .min(0, 'fail-rate must be 0 to 1')
    .max(1, 'fail-rate must be 0 to 1')
    .default(0),
  dropRate: z
    .number('drop-rate must be a number')
    .min(0, 'drop-rate must be 0 to 1')
    .max(1, 'drop-rate must be 0 to 1')
    .default(0),
  dropAfterRate: z
    .number('drop-after-rate must be a number')
    .min(0, 'drop-after-rate must be 0 to 1')
    .max(1, 'drop-after-rate must be 0 to 1')
    .default(0),
  accessTtl: whole('access-ttl')
    .min(1, 'access-ttl must be at least 1 second')
    .default(DEFAULT_ACCESS_TOKEN_TTL_SECONDS),
  refreshTtl: whole('refresh-ttl')
    .min(1, 'refresh-ttl must be at least 1 second')
    .default(DEFAULT_REFRESH_TOKEN_TTL_SECONDS),
  commandTimeoutMs: whole('command-timeout-ms').min(0).max(600_000).default(DEFAULT_COMMAND_TIMEOUT_MS),
  rebootMs: whole('reboot-ms').min(0).max(3_600_000).default(30_000),
  upgradeMs: whole('upgrade-ms').min(0).max(3_600_000).default(20_000),
  ssh: z.boolean('ssh must be true or false').default(false),
  relayPort: whole('relay-port')
    .min(0, 'relay-port must be 0 to 65535')
    .max(65535, 'relay-port must be 0 to 65535')
    .default(0),
  offlineFraction: z
    .number()
    .min(0, 'offline-fraction must be 0 to 1')
    .max(1, 'offline-fraction must be 0 to 1')
    .default(0.1),
});
/** Settings as given (every field optional). */
export type SimulatorSettingsInput = z.input<typeof SimulatorSettingsSchema>;
/** Settings with defaults filled in. */
export type SimulatorSettings = z.output<typeof SimulatorSettingsSchema>;
