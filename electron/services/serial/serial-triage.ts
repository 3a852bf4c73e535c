import { randomBytes } from 'node:crypto';
import type { TerminalState } from '../terminal-core/terminal-session';
import {
  cleanConsoleText,
  MAX_CONSOLE_TEXT_CHARACTERS,
  noiseShare,
} from '../../shared/terminal/triage-parsers';
import type { TriageReading, TriageReadings } from '../../shared/terminal/triage-health';
import type { TriageCommand, TriageWait } from '../../shared/terminal/triage-schemas';
import { translateTransmitNewlines } from './newline';
import type { TransmitNewline } from './options';
import type { DisplayFilter } from './serial-display';
import { TriageMarkerFilter } from './triage-marker-filter';
import { t } from '../../shared/i18n';
import { storedMessage, type StoredMessage } from '../../shared/visit/stored-message';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** The face of a serial session the triage drives: raw bytes in, bytes out, and its state. */
export interface TriageConsole {
  readonly state: TerminalState;
  readonly options: { txNewline: TransmitNewline };
  writeBytes(data: Uint8Array): Promise<void>;
  on(event: 'received', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'state', listener: (state: TerminalState, reason?: string) => void): unknown;
  off(event: 'received', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'state', listener: (state: TerminalState, reason?: string) => void): unknown;
  /** Where given, the triage's end markers are kept off the screen and the log while it runs. */
  setDisplayFilter?(filter: DisplayFilter | undefined): void;
}

/** Where a run stands, for the wait the technician watches. */
export interface TriageProgress {
  /** What the run waits for now (triageWaitWords says it in words). */
  waitingFor: TriageWait;
  /** The command running, if one is. */
  command?: string;
  /** Commands finished so far, and how many the run has. */
  done: number;
  total: number;
  /** The most the whole run can still take: the current wait's limit left plus every later one's. */
  remainingMs: number;
}

/** One read-only diagnostic command; `fallback` runs instead when the first is missing or fails. */
export interface TriageStep {
  key: keyof TriageReadings;
  command: string;
  fallback?: string;
  timeoutMs?: number;
}

/**
 * The fixed, read-only set the triage runs, in this order. Nothing here writes a setting: each reads state
 * (`date +%s` without a time to set, `ps`, `mmcli -m 0` without an action flag, a ping the gateway sends).
 */
export const TRIAGE_STEPS: readonly TriageStep[] = [
  { key: 'version', command: 'system_version' },
  { key: 'uptime', command: 'uptime' },
  // Early, so that a run cancelled after a few commands still has the clock the acceptance card judges.
  { key: 'clock', command: 'date +%s' },
  { key: 'addresses', command: 'ip addr', fallback: 'ifconfig' },
  { key: 'routes', command: 'ip route', fallback: 'route -n' },
  { key: 'dns', command: 'cat /etc/resolv.conf' },
  { key: 'log', command: 'logread | tail -n 200' },
  { key: 'modem', command: 'mmcli -m 0' },
  { key: 'processes', command: 'ps' },
  // Three pings two seconds apart, each waiting at most two: well under the timeout.
  { key: 'ping', command: 'ping -c 3 -W 2 8.8.8.8', timeoutMs: 20_000 },
];

/** Default time a command has to print its end marker. */
export const TRIAGE_COMMAND_TIMEOUT_MS = 15_000;
/** Default time the console has to show a prompt (login, password, shell). */
export const TRIAGE_PROMPT_TIMEOUT_MS = 10_000;
/** Output kept per command at most; a console flooding more keeps its last part. */
const MAX_OUTPUT_CHARACTERS = MAX_CONSOLE_TEXT_CHARACTERS;
/**
 * What a wait looks at besides the characters new since it last looked: enough for a prompt or an end marker
 * split across chunks. Looking at the whole output on every chunk made a flood quadratic.
 */
const CHECK_OVERLAP_CHARACTERS = 4096;

/** How the triage logs in and how long it waits. */
export interface SerialTriageOptions {
  /** The root password (from the keychain or typed); needed only when the console is at a login prompt. */
  password?: string;
  username?: string;
  commandTimeoutMs?: number;
  promptTimeoutMs?: number;
  steps?: readonly TriageStep[];
  /** Milliseconds on a monotonic clock (default performance.now). */
  now?: () => number;
  /** Epoch milliseconds (the app's Clock): each answer's `answeredAt`, what the gateway's clock is compared with. */
  wallClock?: () => number;
  /** The timers of the waits for an answer or a prompt (default SYSTEM_CLOCK). */
  clock?: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** Aborted: the run stops after the command under way (then logs out if it logged in). */
  signal?: AbortSignal;
  /** Told at each wait what the run waits for and how long it can still take. */
  onProgress?: (progress: TriageProgress) => void;
}

/**
 * What a triage run read; `problem` says why it stopped before the end, as a message kept as data (key and
 * values: triageSentenceWords writes it in the language shown).
 */
export interface SerialTriageOutcome {
  outcome: 'complete' | 'stopped';
  problem?: StoredMessage;
  commands: TriageCommand[];
  readings: TriageReadings;
  /** True when the triage typed the password at a login prompt and the gateway took it. */
  usedPassword: boolean;
  /** When it logged in itself: whether it logged out again at the end, as a message kept as data. */
  consoleLeft?: StoredMessage;
}

/** The console is at a login prompt and no password is known, or the gateway refused the one given. */
export class TriageLoginError extends Error {
  override readonly name = 'TriageLoginError';
  constructor(
    message: string,
    readonly reason: 'password-required' | 'password-refused',
  ) {
    super(message);
  }
}

const LOGIN_PROMPT = /(?:^|\n)[^\n]*\blogin:\s*$/i;
const PASSWORD_PROMPT = /password:\s*$/i;
const SHELL_PROMPT = /[#$]\s*$/;
const LOGIN_REFUSED = /Login incorrect|Authentication failure|Permission denied/i;
/**
 * Prompts a read-only command should never print: the triage stops instead of answering them. `press any key…`
 * ends in a non-space, so that its text and the trailing `\s*` never try the same run of spaces.
 */
const UNEXPECTED_PROMPT =
  /(?:\(y\/n\)|\[y\/n\]|\(yes\/no[^)]*\)\??|password:|passphrase[^:\n]*:|login:|--more--|press any key(?:[^\n]*\S)?|continue\?)\s*$/i;

/** Stops the run; `reason` is what the outcome keeps as its `problem`. */
class StopTriage extends Error {
  constructor(readonly reason: StoredMessage) {
    super(reason.key);
  }
}

/**
 * Runs the read-only diagnostics on a serial console: wakes it with a newline, logs in as root when it shows a
 * login prompt, then runs each step as `<command>; echo __FK_END_<run>-<n>_$?` and takes what came before the
 * marker (echo and escape sequences removed) with the exit status. A command that prints no marker within its
 * timeout gets Ctrl-C and is reported as timed out; the run goes on only if the shell answers again. A prompt
 * (y/n, password, --More--) stops the run after Ctrl-C, as does the port going away, or `signal` (after the
 * command under way); what was read is kept. When it logged in itself it logs out (`exit`) at the end, whatever
 * the outcome, and says so in `consoleLeft`. Everything goes over the session's own port, so the session log holds
 * every command and answer — without the end markers, which the session's display filter keeps off the screen
 * and the log — but never the password (sent unechoed, not through local echo).
 */
export async function runSerialTriage(
  session: TriageConsole,
  options: SerialTriageOptions = {},
): Promise<SerialTriageOutcome> {
  const now = options.now ?? (() => performance.now());
  const wallClock = options.wallClock ?? SYSTEM_CLOCK.now;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const promptTimeoutMs = options.promptTimeoutMs ?? TRIAGE_PROMPT_TIMEOUT_MS;
  const runToken = randomBytes(2).toString('hex');
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let text = '';
  /** Characters received since a wait last looked. */
  let unchecked = 0;
  let waiter: (() => void) | undefined;
  /** Why the port went away, once it has: the message the run stops with. */
  let lostReason: StoredMessage | undefined;
  const onReceived = (chunk: Uint8Array) => {
    const decoded = decoder.decode(chunk, { stream: true });
    text += decoded;
    unchecked += decoded.length;
    if (text.length > MAX_OUTPUT_CHARACTERS) text = text.slice(-MAX_OUTPUT_CHARACTERS);
    waiter?.();
  };
  const onState = (state: TerminalState, reason?: string) => {
    if (state === 'open') return;
    lostReason =
      reason !== undefined
        ? storedMessage('triage:portWentAway', { reason })
        : state === 'closed'
          ? storedMessage('triage:portClosedDuringRun')
          : storedMessage('triage:sessionStateDuringRun', { state });
    waiter?.();
  };

  /**
   * Resolves with the text read since the last send once `isDone` says so, or undefined at the timeout; rejects
   * when the port is lost. `isDone` is given the characters new since it was last asked and the
   * CHECK_OVERLAP_CHARACTERS before them (and whether earlier text was left out), so each check costs what
   * arrived, not what was read so far.
   */
  const waitFor = (
    isDone: (recent: string, isMidText: boolean) => boolean,
    timeoutMs: number,
  ): Promise<string | undefined> =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (lostReason !== undefined) {
          finish();
          reject(new StopTriage(lostReason));
          return;
        }
        const from = Math.max(0, text.length - unchecked - CHECK_OVERLAP_CHARACTERS);
        unchecked = 0;
        if (isDone(text.slice(from), from > 0)) {
          finish();
          resolve(text);
        }
      };
      const timer = clock.setTimeout(() => {
        finish();
        resolve(undefined);
      }, timeoutMs);
      const finish = () => {
        clock.clearTimeout(timer);
        waiter = undefined;
      };
      waiter = check;
      check();
    });
  const send = async (line: string) => {
    text = '';
    unchecked = 0;
    if (session.state !== 'open')
      throw new StopTriage(storedMessage('triage:consoleNotOpen', { state: session.state }));
    await session.writeBytes(translateTransmitNewlines(line, session.options.txNewline));
  };
  const interrupt = () => session.writeBytes(Uint8Array.of(3)).catch(() => {});

  const commands: TriageCommand[] = [];
  const readings: TriageReadings = {};
  const steps = options.steps ?? TRIAGE_STEPS;
  const commandLimit = (step: TriageStep) =>
    step.timeoutMs ?? options.commandTimeoutMs ?? TRIAGE_COMMAND_TIMEOUT_MS;
  // A command that times out is followed by an `echo` the shell has a prompt's time to answer.
  const stepMostMs = (step: TriageStep) =>
    (commandLimit(step) + promptTimeoutMs) * (step.fallback === undefined ? 1 : 2);
  let stepsDone = 0;
  let willLogOut = options.password !== undefined;
  /** Tells onProgress about a wait of at most `limitMs` starting now, with the later steps' most after it. */
  const report = (waitingFor: TriageWait, limitMs: number, command?: string) => {
    if (!options.onProgress) return;
    const later = steps
      .slice(stepsDone + (command === undefined ? 0 : 1))
      .reduce((sum, step) => sum + stepMostMs(step), 0);
    options.onProgress({
      waitingFor,
      ...(command === undefined ? {} : { command }),
      done: stepsDone,
      total: steps.length,
      remainingMs: limitMs + later + (willLogOut ? promptTimeoutMs : 0),
    });
  };
  let usedPassword = false;
  let outcome: SerialTriageOutcome;
  session.on('received', onReceived);
  session.on('state', onState);
  session.setDisplayFilter?.(new TriageMarkerFilter(runToken));
  try {
    try {
      if (session.state !== 'open')
        throw new StopTriage(storedMessage('triage:consoleNotOpenReconnect', { state: session.state }));
      usedPassword = await reachShell();
      willLogOut = usedPassword;
      for (const [index, step] of steps.entries()) {
        if (options.signal?.aborted) throw new StopTriage(describeCancel(commands, stepsDone, steps.length));
        let reading = await runCommand(step.command, `${index}`, step.timeoutMs);
        if (step.fallback && reading.exitCode !== null && reading.exitCode !== 0) {
          reading = await runCommand(step.fallback, `${index}b`, step.timeoutMs);
        }
        readings[step.key] = reading;
        stepsDone += 1;
      }
      outcome = { outcome: 'complete', commands, readings, usedPassword };
    } catch (error) {
      if (error instanceof TriageLoginError) throw error;
      if (!(error instanceof StopTriage)) throw error;
      outcome = { outcome: 'stopped', problem: error.reason, commands, readings, usedPassword };
    }
    if (usedPassword) outcome.consoleLeft = await logOut();
    return outcome;
  } finally {
    session.off('received', onReceived);
    session.off('state', onState);
    session.setDisplayFilter?.(undefined);
  }

  /** Logs out of the shell it logged into, so that no one finds a root shell on the console; says how it went. */
  async function logOut(): Promise<StoredMessage> {
    if (lostReason !== undefined || session.state !== 'open')
      return storedMessage('triage:mayBeLoggedInPortGone');
    report('logoutPrompt', promptTimeoutMs);
    try {
      await send('exit\r');
      const seen = await waitFor(
        (recent) => LOGIN_PROMPT.test(cleanConsoleText(recent).slice(-200)),
        promptTimeoutMs,
      );
      if (seen !== undefined) return storedMessage('triage:loggedOut');
    } catch {
      return storedMessage('triage:mayBeLoggedInPortGone');
    }
    return storedMessage('triage:mayBeLoggedInNoPrompt', { seconds: seconds(promptTimeoutMs) });
  }

  /** Brings the console to a shell prompt, logging in if needed; true when it typed the password. */
  async function reachShell(): Promise<boolean> {
    // Each report covers every wait still possible before the commands: an upper bound that only shrinks.
    const loginMostMs = options.password === undefined ? 0 : promptTimeoutMs * 2;
    const backToLoginMostMs = promptTimeoutMs + 5_000;
    report('prompt', promptTimeoutMs + backToLoginMostMs + loginMostMs);
    await send('\r');
    const atPrompt = (recent: string) => {
      const tail = cleanConsoleText(recent).slice(-200);
      return LOGIN_PROMPT.test(tail) || PASSWORD_PROMPT.test(tail) || SHELL_PROMPT.test(tail);
    };
    let seen = await waitFor(atPrompt, promptTimeoutMs);
    if (seen === undefined) throw new StopTriage(describeNoPrompt(text, promptTimeoutMs));
    let tail = cleanConsoleText(seen).slice(-200);
    if (PASSWORD_PROMPT.test(tail)) {
      // Someone typed a user name already: an empty password brings the login prompt back.
      report('loginPrompt', backToLoginMostMs + loginMostMs);
      await send('\r');
      seen = await waitFor(
        (recent) => LOGIN_PROMPT.test(cleanConsoleText(recent).slice(-200)),
        backToLoginMostMs,
      );
      if (seen === undefined) throw new StopTriage(describeNoPrompt(text, promptTimeoutMs));
      tail = cleanConsoleText(seen).slice(-200);
    }
    if (!LOGIN_PROMPT.test(tail)) return false;
    if (!options.password) {
      throw new TriageLoginError(t('triage:passwordRequired'), 'password-required');
    }
    report('passwordPrompt', loginMostMs);
    await send(`${options.username ?? 'root'}\r`);
    if (
      (await waitFor((recent) => PASSWORD_PROMPT.test(cleanConsoleText(recent)), promptTimeoutMs)) ===
      undefined
    )
      throw new StopTriage(storedMessage('triage:noPasswordPrompt', { seconds: seconds(promptTimeoutMs) }));
    await send(`${options.password}\r`);
    const answer = await waitFor((recent) => {
      const cleaned = cleanConsoleText(recent);
      return LOGIN_REFUSED.test(cleaned) || SHELL_PROMPT.test(cleaned.slice(-200));
    }, promptTimeoutMs);
    if (answer === undefined)
      throw new StopTriage(storedMessage('triage:noShellPrompt', { seconds: seconds(promptTimeoutMs) }));
    if (LOGIN_REFUSED.test(cleanConsoleText(answer)))
      throw new TriageLoginError(t('triage:passwordRefused'), 'password-refused');
    return true;
  }

  async function runCommand(command: string, number: string, timeoutMs?: number): Promise<TriageReading> {
    const limit = timeoutMs ?? options.commandTimeoutMs ?? TRIAGE_COMMAND_TIMEOUT_MS;
    const marker = `__FK_END_${runToken}-${number}_`;
    const ended = new RegExp(`${marker}(\\d+)`);
    const startedAt = now();
    report('answer', limit + promptTimeoutMs, command);
    await send(`${command}; echo ${marker}$?\r`);
    let unexpected: string | undefined;
    const seen = await waitFor((recent) => {
      const cleaned = cleanConsoleText(recent);
      if (ended.test(cleaned)) return true;
      const afterEcho = cleaned.slice(cleaned.indexOf('$?') + 2);
      unexpected = UNEXPECTED_PROMPT.exec(afterEcho.slice(-200))?.[0]?.trim();
      return unexpected !== undefined;
    }, limit);
    const durationMs = Math.round(now() - startedAt);
    const answeredAt = wallClock();
    if (seen !== undefined && unexpected === undefined) {
      const cleaned = cleanConsoleText(seen);
      const match = ended.exec(cleaned)!;
      const echoEnd = cleaned.indexOf('$?');
      const from = echoEnd === -1 ? 0 : cleaned.indexOf('\n', echoEnd) + 1;
      const output = cleaned.slice(from, match.index);
      const exitCode = Number(match[1]);
      commands.push({
        command,
        outcome: exitCode === 0 ? 'ok' : 'failed',
        exitCode,
        durationMs,
        timeoutMs: limit,
      });
      return { command, output, exitCode, answeredAt };
    }
    await interrupt();
    commands.push({
      command,
      outcome: unexpected === undefined ? 'timed-out' : 'prompted',
      exitCode: null,
      durationMs,
      timeoutMs: limit,
    });
    if (unexpected !== undefined)
      throw new StopTriage(storedMessage('triage:stoppedAtPrompt', { command, asked: unexpected }));
    const sync = `__FK_SYNC_${runToken}-${number}`;
    const syncLine = new RegExp(`(?:^|\\n)${sync}\\s*\\n`);
    await send(`echo ${sync}\r`);
    const synced = await waitFor((recent, isMidText) => {
      const cleaned = cleanConsoleText(recent);
      // A window starting mid-text may start mid-line: its first line is not known to be a whole line.
      return syncLine.test(isMidText ? cleaned.slice(cleaned.indexOf('\n') + 1) : cleaned);
    }, promptTimeoutMs);
    if (synced === undefined)
      throw new StopTriage(storedMessage('triage:noAnswerAfterCtrlC', { command, seconds: seconds(limit) }));
    return { command, output: '', exitCode: null };
  }
}

function describeCancel(commands: TriageCommand[], done: number, total: number): StoredMessage {
  const last = commands.at(-1);
  return last
    ? storedMessage('triage:cancelledAfter', { command: last.command, done, total })
    : storedMessage('triage:cancelledBeforeFirst');
}

/** Seconds with one decimal, for the `{{seconds}}` of a message that says "s" itself. */
function seconds(milliseconds: number): number {
  return Math.round(milliseconds / 100) / 10;
}

function describeNoPrompt(received: string, timeoutMs: number): StoredMessage {
  if (received.length === 0) return storedMessage('triage:noPromptNothing', { seconds: seconds(timeoutMs) });
  if (received.length >= 8 && noiseShare(received) > 0.3)
    return storedMessage('triage:noPromptNoise', { seconds: seconds(timeoutMs), count: received.length });
  return storedMessage('triage:noPromptText', { seconds: seconds(timeoutMs) });
}
