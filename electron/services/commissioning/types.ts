import type { CommandName, CommandRequest, CommandResponse } from '../../shared/api';
import type { Clock } from '../../shared/clock';
import type { WizardGuard } from '../../shared/ipc/domains/risk';
import type { WizardCheck } from '../../shared/ipc/domains/run-events';
import type { WizardChange, WizardName as SharedWizardName } from '../../shared/ipc/domains/wizards';
import type { MessageKey } from '../../shared/i18n';
import type { RecordedMessage } from '../../shared/i18n/recorded-message';

export type { CommandCallOptions, GatewayCommander } from '../commands/command-service';

/** The wizards of issue 5 that follow read → edit → review → apply → verify. */
export type WizardName = SharedWizardName;

/** Where a wizard run stands; a UI renders one screen per step. */
export type WizardStep =
  | 'idle'
  | 'reading'
  | 'editing'
  | 'reviewing'
  | 'backing-up'
  | 'applying'
  | 'waiting'
  | 'verifying'
  | 'rolling-back'
  | 'finished';

/**
 * One value that will change (or changed): a stable `path` (`ssh.enabled`, `apn[0].name`), a `label` a
 * technician reads ("SSH access"), and the values before and after.
 */
export type Change = WizardChange & {
  /** The label as data (key and values), kept in the audit record so the report writes it in its language. */
  labelWords?: RecordedMessage;
};

/** A risk the technician must acknowledge by typing `confirmationText` after reading `warning`. */
export type Guard = WizardGuard;

/** One verification: what was checked, whether it passed, and what was seen. */
export type Check = WizardCheck & {
  /** Name and detail as data, kept in the audit record so the report writes them in its language. */
  words?: { name: RecordedMessage; detail: RecordedMessage };
};

/** What the technician sees after review: the diff, warnings, and the guards apply will demand. */
export interface Review<Edit> {
  edit: Edit;
  changes: Change[];
  warnings: string[];
  guards: Guard[];
  /** Problems in the edit (nothing is sent while there are any). */
  problems: string[];
  /** True when apply will take a backup first. */
  isDisruptive: boolean;
}

/** Facts about the technician's situation the guards need. */
export interface WizardEnvironment {
  /** True while a terminal session to this gateway goes through SSH. */
  hasSshTerminal?: (gatewayId: string) => boolean;
  /** True when the WAN connectivity check pings the gateway (blocking ping breaks it). */
  connectivityCheckUsesPing?: boolean;
}

/** What a step function gets: the gateway, an audited command runner bound to the run's signal, a clock. */
export interface WizardContext {
  gatewayId: string;
  signal: AbortSignal;
  clock: Clock;
  command<Name extends CommandName>(
    name: Name,
    request?: CommandRequest<Name>,
  ): Promise<CommandResponse<Name>>;
  /** Tells the UI what is happening, in words (and how far, 0 to 1, when known). */
  progress(message: string, fraction?: number): void;
  /**
   * Reads with `read` until `isDone` holds or `timeoutMs` passes, pausing `intervalMs` between reads; a gateway
   * that stops answering meanwhile is waited for. Resolves with the last value read and whether it was done.
   */
  poll<Value>(
    read: () => Promise<Value>,
    isDone: (value: Value) => boolean,
    options: {
      timeoutMs: number;
      intervalMs: number;
      /** Says what each read found: a wait's one line (with its deadline), or progress with `isProgress`. */
      describe?: (value: Value) => string;
      /** `describe` tells how far a job got (a scan's percentage) rather than what the run waits for. */
      isProgress?: boolean;
    },
  ): Promise<{ value: Value | undefined; isDone: boolean }>;
}

/**
 * A wizard as pure step functions over the session: read the state, turn it into an edit, diff an edit,
 * apply it, verify it and roll it back. The engine supplies safety (backup, waits, rollback, audit).
 */
export interface WizardDefinition<State, Edit> {
  name: WizardName;
  /** What the wizard sets, as a message key ("cellular modem and APN"), for the step lines. */
  title: MessageKey;
  /** Disruptive wizards get a backup before apply. */
  isDisruptive: boolean;
  read(context: WizardContext): Promise<State>;
  /** The edit that leaves everything as it is (the form's starting values). */
  editOf(state: State): Edit;
  /** What the edit changes compared with the state. */
  changes(state: State, edit: Edit): Change[];
  /** Problems in the edit, in words (the current language). */
  validate(state: State, edit: Edit): string[];
  warnings(state: State, edit: Edit, environment: WizardEnvironment, gatewayId: string): string[];
  guards(state: State, edit: Edit, environment: WizardEnvironment, gatewayId: string): Guard[];
  apply(context: WizardContext, state: State, edit: Edit): Promise<void>;
  /** Read back plus the functional check where one exists; each check in words. */
  verify(context: WizardContext, state: State, edit: Edit): Promise<Check[]>;
  /** Puts the values of `state` back. */
  rollback(context: WizardContext, state: State, edit: Edit): Promise<void>;
  /**
   * After a failed verification was rolled back and the previous values read back: the result in words — what the
   * new values failed to do and what holds again now (the wizard may check it, within the verify time limit).
   * Undefined keeps the engine's own words.
   */
  describeRollback?(
    context: WizardContext,
    state: State,
    edit: Edit,
    failed: { checks: Check[]; verifyTimeoutMs: number },
  ): Promise<RecordedMessage | undefined>;
}
