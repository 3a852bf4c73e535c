import { z } from 'zod';
import { BackupSchema, gatewayCommands } from '../../api/commands';
import type { GatewayTask } from './tasks';

/** How a gateway task that changes the gateway ended, in words; `waitedMs` is how long the gateway was away. */
export const TaskResultSchema = z.object({
  task: z.string(),
  outcome: z.enum(['ok', 'failed', 'cancelled']),
  message: z.string(),
  waitedMs: z.number().optional(),
  /** Package versions before a software task, by name (the audit log and the report show before → after). */
  before: z.record(z.string(), z.string()).optional(),
  /** Package versions read back after it, by name. */
  after: z.record(z.string(), z.string()).optional(),
});
/** How a gateway task ended. */
export type TaskResult = z.infer<typeof TaskResultSchema>;

/** A backup with its date read as time: milliseconds since the epoch, or null when the date does not parse. */
export const BackupViewSchema = BackupSchema.extend({ dateMs: z.number().nullable() });
/** A backup with its date read as time. */
export type BackupView = z.infer<typeof BackupViewSchema>;

/** The software page's state: versions, upgradable and installable packages, BSP and last install status. */
export const SoftwareStateSchema = z.object({
  versions: z.unknown(),
  upgradable: gatewayCommands.getUpgradableSoftware.response,
  installable: gatewayCommands.getInstallableSoftware.response,
  bspStatus: z.unknown(),
  lastStatus: gatewayCommands.getLastInstallUpgradeStatus.response,
});
/** The software page's state. */
export type SoftwareState = z.infer<typeof SoftwareStateSchema>;

/** One radio's packet counters. */
export const RadioStatisticsSchema = z.object({
  index: z.int(),
  statistics: gatewayCommands.getRadioStatistics.response,
});
/** One radio's packet counters. */
export type RadioStatistics = z.infer<typeof RadioStatisticsSchema>;

/** A finished spectral scan: its parameters and its results (the spec leaves the results' shape open). */
export const SpectralScanSchema = z.object({
  params: gatewayCommands.getSpectralScanParams.response,
  results: z.unknown(),
});
/** A finished spectral scan. */
export type SpectralScan = z.infer<typeof SpectralScanSchema>;

/** A spectral scan channel as the results list it (the spec leaves the shape open; an API assumption). */
export const ScanChannelSchema = z.looseObject({
  frequency: z.number(),
  rssiMax: z.number(),
  rssiAverage: z.number(),
});
/** A spectral scan channel. */
export type ScanChannel = z.infer<typeof ScanChannelSchema>;

/** The diagnostics overview: identity, antennas, GPS and BSP status (GPS and BSP shapes not in the spec). */
export const DiagnosticsSchema = z.object({
  info: gatewayCommands.getGatewayInfo.response,
  antennas: gatewayCommands.getAntennasCount.response,
  gps: z.unknown(),
  bspStatus: z.unknown(),
});
/** The diagnostics overview. */
export type Diagnostics = z.infer<typeof DiagnosticsSchema>;

/** A gateway task's name, as `gateway-task:run` takes it. */
export type GatewayTaskName = GatewayTask['task'];

/**
 * What each gateway task answers, by task name: `value` of `gateway-task:run` for that task. Main's task runners
 * are typed against it (electron/app/domains/tasks.ts), the renderer's TaskRunner returns it.
 */
export const gatewayTaskAnswers = {
  listBackups: z.array(BackupViewSchema),
  createBackup: TaskResultSchema.extend({ index: z.int().optional() }),
  restoreBackup: TaskResultSchema,
  readSoftware: SoftwareStateSchema,
  upgrade: TaskResultSchema,
  install: TaskResultSchema,
  reboot: TaskResultSchema,
  readRadioStatistics: z.array(RadioStatisticsSchema),
  resetRadioStatistics: TaskResultSchema,
  spectralScan: SpectralScanSchema,
  readDiagnostics: DiagnosticsSchema,
  ping: gatewayCommands.ping.response,
} as const satisfies { [Name in GatewayTaskName]: z.ZodType };

/** What gateway task `Name` answers. */
export type GatewayTaskAnswer<Name extends GatewayTaskName> = z.infer<(typeof gatewayTaskAnswers)[Name]>;

/** A gateway task with its arguments, by task name. */
export type GatewayTaskOf<Name extends GatewayTaskName> = Extract<GatewayTask, { task: Name }>;

/** True when a task's answer is a TaskResult that did not end well (failed or cancelled). */
export function isUnsuccessfulTask(value: unknown): value is TaskResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    'outcome' in value &&
    (value.outcome === 'failed' || value.outcome === 'cancelled')
  );
}
