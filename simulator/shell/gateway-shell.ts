import { createHash } from 'node:crypto';
import { generateFloodChunks, parseFloodSize } from './flood';
import { formatLogLine, type GatewayFacts } from './gateway-files';
import { HEALTHY_NETWORK, networkLogErrors, type GatewayNetworkView } from './gateway-network';
import { applyFilter, captureCommand, type ShellEnvironment } from './shell-commands';
import { SYSTEM_CLOCK, type Clock } from '../../electron/shared/clock';

/** Who the shell pretends to be. The optional fields make it deterministic in tests. */
export interface GatewayShellContext {
  gatewayId: string;
  hostname: string;
  bspVersion: string;
  onReboot?(): void;
  /** Shown by `system_version`; default "Tektelic KONA Macro IoT Gateway". */
  model?: string;
  /** The shell's clock; default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** When the gateway booted, for `uptime`; default three days before the shell started. */
  bootedAt?: Date;
  /** Whether the packet forwarder runs when the shell starts; default true. */
  isPacketForwarderRunning?: boolean;
  /** How often `logread -f` prints a new line; default 2000 ms. */
  followIntervalMs?: number;
  /** The gateway's network now (links, modem, active WAN); default a healthy gateway. */
  network?: () => GatewayNetworkView;
  /**
   * Receives one file over the line (`rb`: YMODEM, `rx`: XMODEM with CRC-16), resolving with its size and SHA-256;
   * only a serial console has one.
   */
  receiveFile?(protocol: 'ymodem' | 'xmodem'): Promise<{ name?: string; size: number; sha256: string }>;
}

/** Where the shell writes and how it ends its session. */
export interface GatewayShellIo {
  /** Resolves when the sink took the chunk, so a flood never buffers megabytes. */
  write(chunk: string): Promise<void>;
  exit(code: number): void;
}

interface RunningCommand {
  cancel(): void;
}

const MAX_LINE_LENGTH = 4096;
const MAX_TYPEAHEAD_LINES = 16;
const MAX_HISTORY_LINES = 100;
const LOG_HISTORY_LINES = 12;
const ERASE_CHARACTER = '\b \b';

/** Converts text with LF line ends to what a tty with ONLCR sends: CRLF. */
function toTerminalText(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/**
 * An emulated gateway shell: prompt, line editing, the commands, `flood <MB>` honouring backpressure.
 * Writes are strictly sequential (never two `io.write` calls at once); keystrokes typed while a command runs
 * are echoed at once, like a tty, and run after it. A rejected `io.write` stops the shell.
 */
export class GatewayShell {
  readonly #context: GatewayShellContext;
  readonly #io: GatewayShellIo;
  readonly #facts: GatewayFacts;
  readonly #clock: () => Date;
  readonly #bootedAt: Date;
  #line = '';
  #escape: 'none' | 'escape' | 'control-sequence' | 'single-shift' = 'none';
  #lastWasCarriageReturn = false;
  #running: RunningCommand | undefined;
  #typeahead: string[] = [];
  #history: string[] = [];
  #historyIndex = 0;
  #escapeParameters = '';
  #output: Promise<void> = Promise.resolve();
  #isClosed = false;
  #logIndex = 0;
  /** `$?`: the exit status of the last command. */
  #lastExitCode = 0;
  readonly #packetForwarder: { isRunning: boolean };

  constructor(context: GatewayShellContext, io: GatewayShellIo) {
    this.#context = context;
    this.#io = io;
    const clock = context.clock ?? SYSTEM_CLOCK;
    this.#clock = () => new Date(clock.now());
    this.#bootedAt = context.bootedAt ?? new Date(this.#clock().getTime() - 3 * 86_400_000 - 4 * 3_600_000);
    this.#packetForwarder = { isRunning: context.isPacketForwarderRunning ?? true };
    this.#facts = {
      gatewayId: context.gatewayId,
      hostname: context.hostname,
      bspVersion: context.bspVersion,
      model: context.model ?? 'Tektelic KONA Macro IoT Gateway',
    };
  }

  /** The prompt the shell prints before each command. */
  get prompt(): string {
    return `root@${this.#context.hostname}:~# `;
  }

  /** False once the shell exited, rebooted, was stopped or lost its sink. */
  get isOpen(): boolean {
    return !this.#isClosed;
  }

  /** Prints the banner and the first prompt. */
  async start(): Promise<void> {
    const banner = [
      '',
      '',
      `BusyBox v1.31.1 () built-in shell (ash)`,
      '',
      `  Tektelic Kona - ${this.#facts.model}`,
      `  Gateway ${this.#context.gatewayId}, BSP ${this.#context.bspVersion}`,
      `  Type 'help' for the commands.`,
      '',
      '',
    ].join('\r\n');
    await this.#send(banner + this.prompt);
  }

  /** Raw keystrokes: echo, CR/LF, backspace, Ctrl-C (stops a flood / logread -f), Ctrl-D, Ctrl-U, Ctrl-L. */
  input(data: string): void {
    for (const character of data) {
      if (this.#isClosed) return;
      this.#inputCharacter(character);
    }
  }

  /** Ends the shell without calling `exit` (the transport went away): stops any flood or follow. */
  stop(): void {
    this.#isClosed = true;
    this.#running?.cancel();
  }

  #inputCharacter(character: string): void {
    const wasCarriageReturn = this.#lastWasCarriageReturn;
    this.#lastWasCarriageReturn = false;
    if (this.#escape !== 'none') {
      this.#consumeEscape(character);
      return;
    }
    switch (character) {
      case '\r':
        this.#lastWasCarriageReturn = true;
        this.#enter();
        return;
      case '\n':
        if (!wasCarriageReturn) this.#enter();
        return;
      case '\x7f':
      case '\b':
        if (this.#line.length > 0) {
          this.#line = Array.from(this.#line).slice(0, -1).join('');
          void this.#send(ERASE_CHARACTER);
        }
        return;
      case '\x03':
        this.#interrupt();
        return;
      case '\x04':
        if (this.#line === '' && !this.#running) this.#exit(0, 'logout\r\n');
        return;
      case '\x15':
        void this.#send(ERASE_CHARACTER.repeat(Array.from(this.#line).length));
        this.#line = '';
        return;
      case '\x0c':
        if (!this.#running) void this.#send(`\x1b[H\x1b[2J${this.prompt}${this.#line}`);
        return;
      case '\x1b':
        this.#escape = 'escape';
        return;
    }
    if (character < ' ') return; // tab and other controls: no completion here
    if (this.#line.length >= MAX_LINE_LENGTH) {
      void this.#send('\x07');
      return;
    }
    this.#line += character;
    void this.#send(character);
  }

  #consumeEscape(character: string): void {
    if (this.#escape === 'escape') {
      this.#escape = character === '[' ? 'control-sequence' : character === 'O' ? 'single-shift' : 'none';
      this.#escapeParameters = '';
      return;
    }
    if (this.#escape === 'single-shift') {
      this.#escape = 'none';
      this.#recallHistory(character);
      return;
    }
    // A control sequence ends at its final byte (0x40-0x7e); only bare Up and Down do something.
    if (character >= '@' && character <= '~') {
      this.#escape = 'none';
      if (this.#escapeParameters === '') this.#recallHistory(character);
    } else if (this.#escapeParameters.length < 16) {
      this.#escapeParameters += character;
    }
  }

  /** Up (A) and Down (B) walk the command history, replacing the line being edited. */
  #recallHistory(direction: string): void {
    if (this.#running || (direction !== 'A' && direction !== 'B')) return;
    const next = direction === 'A' ? this.#historyIndex - 1 : this.#historyIndex + 1;
    if (next < 0 || next > this.#history.length) return;
    this.#historyIndex = next;
    const line = this.#history[next] ?? '';
    void this.#send(ERASE_CHARACTER.repeat(Array.from(this.#line).length) + line);
    this.#line = line;
  }

  #enter(): void {
    const line = this.#line;
    this.#line = '';
    if (line.trim() !== '' && this.#history.at(-1) !== line) {
      this.#history.push(line);
      if (this.#history.length > MAX_HISTORY_LINES) this.#history.shift();
    }
    this.#historyIndex = this.#history.length;
    void this.#send('\r\n');
    if (this.#running) {
      if (this.#typeahead.length < MAX_TYPEAHEAD_LINES) this.#typeahead.push(line);
      return;
    }
    void this.#run(line);
  }

  #interrupt(): void {
    this.#line = '';
    this.#typeahead = [];
    if (this.#running) {
      this.#running.cancel();
      void this.#send('^C\r\n');
    } else {
      void this.#send(`^C\r\n${this.prompt}`);
    }
  }

  async #run(line: string): Promise<void> {
    let next: string | undefined = line;
    while (next !== undefined) {
      // A placeholder until the command installs its own cancel (flood, logread -f).
      this.#running = { cancel: () => {} };
      try {
        await this.#execute(next.trim());
      } catch {
        this.stop();
      }
      this.#running = undefined;
      if (this.#isClosed) return;
      next = this.#typeahead.shift();
      await this.#send(next === undefined ? this.prompt + this.#line : `${this.prompt}${next}\r\n`);
    }
  }

  /** A line: commands separated by `;`, each a command or a pipe into `tail`, `head` or `grep`. */
  async #execute(line: string): Promise<void> {
    for (const part of line.split(';')) {
      if (this.#isClosed) return;
      await this.#executePipeline(part.trim());
    }
  }

  async #executePipeline(line: string): Promise<void> {
    const expanded = line
      .replace(/\s*2>(?:&1|\/dev\/null)/g, '')
      .replace(/\$\?/g, String(this.#lastExitCode));
    if (expanded === '') return;
    const [first = '', ...filters] = expanded.split('|').map((stage) => stage.trim());
    if (filters.length === 0) return this.#executeCommand(first);
    const [name = '', ...args] = first.split(/\s+/);
    let result = captureCommand(name, args, this.#environment()) ?? {
      text: `-sh: ${name}: not found`,
      code: 127,
    };
    for (const filter of filters) result = applyFilter(result.text, filter);
    this.#lastExitCode = result.code;
    if (result.text !== '') await this.#send(`${toTerminalText(result.text)}\r\n`);
  }

  async #executeCommand(line: string): Promise<void> {
    const [name = '', ...args] = line.split(/\s+/);
    this.#lastExitCode = 0;
    const captured = captureCommand(name, args, this.#environment());
    if (captured) {
      this.#lastExitCode = captured.code;
      if (captured.text !== '' || name === 'echo') await this.#send(`${toTerminalText(captured.text)}\r\n`);
      return;
    }
    switch (name) {
      case 'logread':
        return this.#logread(args);
      case 'clear':
        return this.#send('\x1b[H\x1b[2J');
      case 'flood':
        return this.#flood(args[0]);
      case 'reboot':
        return this.#reboot();
      case 'rb':
        return this.#receiveFile('rb', 'ymodem', args[0]);
      case 'rx':
        return this.#receiveFile('rx', 'xmodem', args[0]);
      case 'exit': {
        const code = args[0] === undefined ? 0 : Number.parseInt(args[0], 10);
        this.#exit(Number.isInteger(code) ? code & 0xff : 0, '');
        return;
      }
      default:
        this.#lastExitCode = 127;
        return this.#send(`-sh: ${name}: not found\r\n`);
    }
  }

  async #receiveFile(
    command: 'rb' | 'rx',
    protocol: 'ymodem' | 'xmodem',
    fileName: string | undefined,
  ): Promise<void> {
    const receive = this.#context.receiveFile;
    if (!receive) {
      this.#lastExitCode = 1;
      return this.#send(`${command}: only a serial console can receive a file\r\n`);
    }
    if (command === 'rx' && !fileName) {
      this.#lastExitCode = 1;
      return this.#send('rx: missing FILE\r\n');
    }
    const label = protocol === 'ymodem' ? 'YMODEM' : 'XMODEM';
    await this.#send(`${command}: waiting for a file (${label}, CRC-16); Ctrl-X Ctrl-X cancels\r\n`);
    try {
      const file = await receive(protocol);
      const name = file.name ?? fileName!;
      await this.#send(`${command}: received ${name}: ${file.size} bytes, sha256 ${file.sha256}\r\n`);
    } catch (error) {
      this.#lastExitCode = 1;
      await this.#send(`\r\n${command}: ${(error as Error).message}\r\n`);
    }
  }

  #environment(): ShellEnvironment {
    return {
      facts: this.#facts,
      network: this.#context.network?.() ?? HEALTHY_NETWORK,
      now: () => this.#clock(),
      uptime: () => this.#formatUptime(),
      logHistory: () => this.#logHistory(),
      packetForwarder: this.#packetForwarder,
    };
  }

  /** The log's last lines: the daemons' routine, then what the network's state makes them complain about. */
  #logHistory(): string[] {
    const now = this.#clock().getTime();
    const history: string[] = [];
    for (let index = 0; index < LOG_HISTORY_LINES; index += 1) {
      const time = new Date(now - (LOG_HISTORY_LINES - index) * 30_000);
      history.push(formatLogLine(this.#facts, this.#logIndex++, time));
    }
    const network = this.#context.network?.() ?? HEALTHY_NETWORK;
    return [...history, ...networkLogErrors(this.#facts, network, new Date(now - 5_000))];
  }

  #formatUptime(): string {
    const now = this.#clock();
    const totalMinutes = Math.max(0, Math.floor((now.getTime() - this.#bootedAt.getTime()) / 60_000));
    const days = Math.floor(totalMinutes / 1440);
    const hours = Math.floor((totalMinutes % 1440) / 60);
    const minutes = totalMinutes % 60;
    const time = now.toISOString().slice(11, 19);
    const dayText = days > 0 ? `${days} day${days === 1 ? '' : 's'}, ` : '';
    return ` ${time} up ${dayText}${String(hours).padStart(2, ' ')}:${String(minutes).padStart(2, '0')},  load average: 0.08, 0.12, 0.10`;
  }

  async #logread(args: string[]): Promise<void> {
    if (args.some((arg) => arg !== '-f')) {
      await this.#send(`logread: unrecognized option '${args.find((arg) => arg !== '-f')}'\r\n`);
      return;
    }
    await this.#send(`${this.#logHistory().join('\r\n')}\r\n`);
    if (!args.includes('-f') || this.#isClosed) return;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        void this.#send(`${formatLogLine(this.#facts, this.#logIndex++, this.#clock())}\r\n`);
      }, this.#context.followIntervalMs ?? 2_000);
      this.#running = {
        cancel: () => {
          clearInterval(timer);
          resolve();
        },
      };
    });
  }

  async #flood(argument: string | undefined): Promise<void> {
    const size = parseFloodSize(argument);
    if (typeof size === 'string') {
      await this.#send(`${size}\r\n`);
      return;
    }
    let isCancelled = false;
    this.#running = { cancel: () => (isCancelled = true) };
    const hash = createHash('sha256');
    for (const chunk of generateFloodChunks(size)) {
      if (isCancelled || this.#isClosed) return;
      hash.update(chunk, 'latin1');
      await this.#send(chunk);
    }
    if (isCancelled || this.#isClosed) return;
    await this.#send(`sha256 ${hash.digest('hex')}\r\n`);
  }

  async #reboot(): Promise<void> {
    await this.#send(
      `\r\nBroadcast message from root@${this.#context.hostname} (ttyS0):\r\n\r\nThe system is going down for reboot NOW!\r\n`,
    );
    this.#context.onReboot?.();
    this.#exit(0, '');
  }

  #exit(code: number, farewell: string): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#running?.cancel();
    const output = farewell ? this.#send(farewell, true) : this.#output;
    void output.then(() => this.#io.exit(code));
  }

  /** Queues a write after every earlier one; resolves when the sink took it. */
  #send(chunk: string, isFinal = false): Promise<void> {
    if (this.#isClosed && !isFinal) return this.#output;
    this.#output = this.#output
      .then(() => this.#io.write(chunk))
      .catch(() => {
        this.stop();
      });
    return this.#output;
  }
}
