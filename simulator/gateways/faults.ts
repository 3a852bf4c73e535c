import { gatewayCommands, type CommandName } from '../../electron/shared/api/commands';
import { badArgument } from '../failure';

/**
 * What a misbehaving gateway does beyond the scenarios (simulator/scenarios.ts): switches a test turns on for one
 * gateway in-process, through `GatewayFleet.faultsOf` (simulator/README.md, "Fault switches"). A fresh gateway has
 * none (`noFaults()`); each switch acts on the commands that follow, through the same command model as the HTTP API.
 */
export interface GatewayFaults {
  /**
   * This many of the next commands get no answer, though the gateway is online: each waits the command timeout and
   * ends in 408 (errorCode 2), as for an offline gateway. Each command counts it down; `Infinity`: none answered.
   */
  unansweredCommands: number;
  /** Commands the gateway refuses: 400 (errorCode 30), "<command> refused". */
  refusedCommands: Set<CommandName>;
  /**
   * Changes (commands that are not reads) the gateway answers `{ status: 'OK' }` to without making them: it keeps
   * the values it had, as a gateway whose firmware drops a setting does.
   */
  ignoredChanges: Set<CommandName>;
  /**
   * An install or upgrade runs its course (progress, reboot) and ends "succeeded" (lastStatus 0), but every package
   * keeps the version it had.
   */
  keepsVersions: boolean;
  /**
   * An install or upgrade runs its course (progress, reboot) and ends "failed" (lastStatus 2); every package keeps
   * the version it had.
   */
  failsInstalls: boolean;
  /** Packages an install or upgrade leaves at the version they had while the rest move and it ends "succeeded". */
  keptPackages: Set<string>;
}

/** The faults of a gateway that behaves. */
export function noFaults(): GatewayFaults {
  return {
    unansweredCommands: 0,
    refusedCommands: new Set(),
    ignoredChanges: new Set(),
    keepsVersions: false,
    failsInstalls: false,
    keptPackages: new Set(),
  };
}

/** True when this command goes unanswered (and counts it). */
export function takeUnanswered(faults: GatewayFaults): boolean {
  if (faults.unansweredCommands <= 0) return false;
  faults.unansweredCommands--;
  return true;
}

/**
 * What the faults make of a command the gateway would otherwise carry out: throws the refusal, or returns the
 * answer to an ignored change; undefined when the command runs as usual.
 */
export function faultyAnswer(faults: GatewayFaults, commandName: CommandName): { status: 'OK' } | undefined {
  if (faults.refusedCommands.has(commandName)) throw badArgument(`${commandName} refused`);
  if (faults.ignoredChanges.has(commandName) && gatewayCommands[commandName].risk !== 'read')
    return { status: 'OK' };
  return undefined;
}
