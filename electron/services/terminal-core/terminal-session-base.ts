import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Clock } from '../../shared/clock';
import { FlowController } from './flow-controller';
import { formatClockTime, LineTimestamper } from './line-timestamps';
import { SessionLog } from './session-log';
import type { TerminalKind, TerminalSession, TerminalState } from './terminal-session';

/** The watermarks of a session's flow control (FlowController's defaults when absent). */
export interface SessionFlowOptions {
  highWatermark?: number;
  lowWatermark?: number;
}

/**
 * What SSH and serial sessions share: an id, the state and its reason (each change emitted as 'state'), the byte
 * counts, flow control towards the renderer and the session log. A subclass says how its producer pauses and
 * resumes, and hands output over with `handOver`, which logs, counts and emits it in that order.
 */
export abstract class TerminalSessionBase extends EventEmitter implements TerminalSession {
  readonly id = randomUUID();
  abstract readonly kind: TerminalKind;
  abstract readonly title: string;
  protected readonly flow: FlowController;
  #state: TerminalState = 'connecting';
  #reason: string | undefined;
  #bytesIn = 0;
  #bytesOut = 0;
  #log: SessionLog | undefined;
  #logOpenProblem: string | undefined;
  readonly #logLineClock: Pick<Clock, 'now'> | undefined;
  #logStamper: LineTimestamper | undefined;

  /**
   * `logLineClock` stamps each line of the log with its time (`[HH:mm:ss.SSS] `), whatever the screen shows;
   * absent when the output is stamped before it is handed over (the log then has those stamps).
   */
  constructor(flow: SessionFlowOptions, logLineClock?: Pick<Clock, 'now'>) {
    super();
    this.#logLineClock = logLineClock;
    this.flow = new FlowController({
      pause: () => this.pauseProducer(),
      resume: () => this.resumeProducer(),
      ...flow,
    });
  }

  /** Where the session is: connecting, open, reconnecting, closed or failed. */
  get state(): TerminalState {
    return this.#state;
  }

  /** Bytes received from the gateway (before any translation or stamps). */
  get bytesIn(): number {
    return this.#bytesIn;
  }

  /** Bytes sent to the gateway. */
  get bytesOut(): number {
    return this.#bytesOut;
  }

  /** The session log file, when logging is on and it could be made. */
  get logPath(): string | undefined {
    return this.#log?.path;
  }

  /** Why there is no log, or why it stopped (the folder cannot be written, the disk is full…). */
  get logProblem(): string | undefined {
    return SessionLog.describeProblem(this.#log, this.#logOpenProblem);
  }

  /** Bytes handed out as 'data' and not yet acknowledged. */
  get unacknowledged(): number {
    return this.flow.unacknowledged;
  }

  abstract write(data: string | Uint8Array): void;
  abstract resize(cols: number, rows: number): void;
  abstract close(): Promise<void>;

  /** The renderer wrote `byteCount` bytes of 'data': may resume a paused producer. */
  acknowledge(byteCount: number): void {
    this.flow.acknowledged(byteCount);
  }

  /**
   * Writes a line of Field Kit's own (`[Field Kit] <text>`, a runbook's result) into the session log, never to the
   * screen: on a line of its own, stamped like the others (with `at` when the log's lines are stamped on screen).
   */
  appendLogNote(text: string, at: number): void {
    const log = this.#log;
    if (!log) return;
    const note = `[Field Kit] ${text.replace(/[\r\n]+/g, ' ')}`;
    if (this.#logStamper) log.append(this.#logStamper.stampBytes(Buffer.from(`\r\n${note}\r\n`, 'utf8')));
    else log.append(Buffer.from(`\r\n[${formatClockTime(new Date(at))}] ${note}\r\n`, 'utf8'));
  }

  /** The reason given with the last state change. */
  protected get stateReason(): string | undefined {
    return this.#reason;
  }

  /** The open session log, if any. */
  protected get log(): SessionLog | undefined {
    return this.#log;
  }

  /** Stops the producer: flow control is above its high watermark. */
  protected abstract pauseProducer(): void;

  /** Lets the producer go on: flow control is back at its low watermark. */
  protected abstract resumeProducer(): void;

  /**
   * Takes the log a (re)open made, or why none could be made (undefined: no log); what became of the last one no
   * longer applies.
   */
  protected useLog(opened: { log: SessionLog } | { problem: string } | undefined): void {
    this.#log = undefined;
    this.#logOpenProblem = undefined;
    this.#logStamper = this.#logLineClock ? new LineTimestamper(this.#logLineClock) : undefined;
    if (opened && 'log' in opened) this.#log = opened.log;
    else if (opened) this.#logOpenProblem = opened.problem;
  }

  protected setState(state: TerminalState, reason?: string): void {
    this.#state = state;
    this.#reason = reason;
    this.emit('state', state, reason);
  }

  protected countIn(byteCount: number): void {
    this.#bytesIn += byteCount;
  }

  protected countOut(byteCount: number): void {
    this.#bytesOut += byteCount;
  }

  /**
   * Hands `chunk` to the renderer: logged (as `logged` when the log must not see the screen's bytes, such as an
   * echoed password), counted by flow control, then emitted as 'data'.
   */
  protected handOver(chunk: Uint8Array, logged: Uint8Array = chunk): void {
    this.#log?.append(this.#logStamper && this.#log ? this.#logStamper.stampBytes(logged) : logged);
    this.flow.sent(chunk.length);
    this.emit('data', chunk);
  }
}
