/** What `loady` / `loadx` received, as the shell's `rb` / `rx` reports it. */
interface LoadedFile {
  size: number;
  sha256: string;
}

/** Where the prompt writes, how it receives a file, and how it hands the console back to the boot. */
export interface UbootPromptIo {
  write(chunk: string): Promise<void>;
  /** Receives one file over the line (the console's FileReceiver); absent: `loady` says it cannot. */
  receiveFile?(protocol: 'ymodem' | 'xmodem'): Promise<{ size: number; sha256: string }>;
  /** `boot` or `reset`: the console boots Linux again. */
  boot(): void;
}

const PROMPT = '=> ';
const LOAD_ADDRESS = 0x82000000;
const MAX_LINE_LENGTH = 256;

const HELP_TEXT = [
  "?       - alias for 'help'",
  "boot    - boot default, i.e., run 'bootcmd'",
  'hash    - compute hash message digest (hash sha256 <addr> <len>)',
  'help    - print command description/usage',
  'loadx   - load binary file over serial line (xmodem mode)',
  'loady   - load binary file over serial line (ymodem mode)',
  'printenv- print environment variables',
  'reset   - Perform RESET of the CPU',
].join('\r\n');

function hex(value: number, width = 8): string {
  return value.toString(16).padStart(width, '0');
}

/**
 * The simulated gateway's U-Boot prompt (`=> `), reached by a key during "Hit any key to stop autoboot": `loady`
 * and `loadx` receive a file to the load address as U-Boot does (`## Ready for binary (ymodem) download…`, then
 * `## Total Size = 0x… = N Bytes`), `hash sha256 <addr> <len>` prints the SHA-256 of what was loaded (so a test can
 * check the bytes), `printenv`, `help`, and `boot` / `reset` go on to Linux. Writes are sequential.
 */
export class UbootPrompt {
  readonly #io: UbootPromptIo;
  #line = '';
  #isBusy = false;
  /** Keys typed while a command runs, taken once it is done (the UART holds them on a real board). */
  #typeahead = '';
  #loaded: LoadedFile | undefined;

  constructor(io: UbootPromptIo) {
    this.#io = io;
  }

  /** Prints the prompt. */
  start(): Promise<void> {
    return this.#send(PROMPT);
  }

  /** Keystrokes from the line (a file being received goes to the receiver, not here). */
  input(data: string): void {
    for (const [index, character] of [...data].entries()) {
      if (this.#isBusy) {
        this.#typeahead = (this.#typeahead + [...data].slice(index).join('')).slice(0, MAX_LINE_LENGTH);
        return;
      }
      if (character === '\r' || character === '\n') {
        if (character === '\n' && this.#line === '') continue;
        const line = this.#line.trim();
        this.#line = '';
        void this.#send('\r\n');
        void this.#run(line);
      } else if (character === '\x7f' || character === '\b') {
        if (this.#line !== '') {
          this.#line = this.#line.slice(0, -1);
          void this.#send('\b \b');
        }
      } else if (character === '\x03') {
        this.#line = '';
        void this.#send(`<INTERRUPT>\r\n${PROMPT}`);
      } else if (character >= ' ' && this.#line.length < MAX_LINE_LENGTH) {
        this.#line += character;
        void this.#send(character);
      }
    }
  }

  async #run(line: string): Promise<void> {
    this.#isBusy = true;
    try {
      const [name = '', ...args] = line.split(/\s+/);
      switch (name) {
        case '':
          break;
        case 'help':
        case '?':
          await this.#send(`${HELP_TEXT}\r\n`);
          break;
        case 'loady':
          await this.#load('ymodem');
          break;
        case 'loadx':
          await this.#load('xmodem');
          break;
        case 'hash':
          await this.#send(`${this.#hash(args)}\r\n`);
          break;
        case 'printenv':
          await this.#send(`${this.#environment(args)}\r\n`);
          break;
        case 'boot':
        case 'reset':
          if (name === 'reset') await this.#send('resetting ...\r\n');
          this.#typeahead = '';
          this.#io.boot();
          return;
        default:
          await this.#send(`Unknown command '${name}' - try 'help'\r\n`);
      }
      await this.#send(PROMPT);
    } finally {
      this.#isBusy = false;
    }
    const typed = this.#typeahead;
    this.#typeahead = '';
    if (typed) this.input(typed);
  }

  async #load(protocol: 'ymodem' | 'xmodem'): Promise<void> {
    if (!this.#io.receiveFile) {
      await this.#send('## This console cannot receive a file\r\n');
      return;
    }
    await this.#send(
      `## Ready for binary (${protocol}) download to 0x${hex(LOAD_ADDRESS)} at 115200 bps...\r\n`,
    );
    try {
      const file = await this.#io.receiveFile(protocol);
      this.#loaded = file;
      await this.#send(`## Total Size      = 0x${hex(file.size)} = ${file.size} Bytes\r\n`);
    } catch (error) {
      await this.#send(
        `\r\n## Transfer aborted: ${error instanceof Error ? error.message : String(error)}\r\n`,
      );
    }
  }

  /** `hash sha256 <addr> <len>`: the loaded file's SHA-256 (the only bytes this simulated memory holds). */
  #hash(args: string[]): string {
    if (args[0] !== 'sha256' || args.length < 3) return 'Usage: hash sha256 <addr> <len>';
    if (!this.#loaded) return '## Nothing loaded: run loady or loadx first';
    const end = LOAD_ADDRESS + Math.max(0, this.#loaded.size - 1);
    return `sha256 for ${hex(LOAD_ADDRESS)} ... ${hex(end)} ==> ${this.#loaded.sha256}`;
  }

  #environment(args: string[]): string {
    const variables: Record<string, string> = {
      bootcmd: 'run mmcboot',
      bootdelay: '3',
      loadaddr: hex(LOAD_ADDRESS),
      ...(this.#loaded ? { filesize: this.#loaded.size.toString(16) } : {}),
    };
    const names = args.length > 0 ? args : Object.keys(variables);
    return names
      .map((name) =>
        variables[name] === undefined ? `## Error: "${name}" not defined` : `${name}=${variables[name]}`,
      )
      .join('\r\n');
  }

  /** The console's own writes are sequential: handed over at once, echoes and answers keep their order. */
  #send(chunk: string): Promise<void> {
    return this.#io.write(chunk);
  }
}
