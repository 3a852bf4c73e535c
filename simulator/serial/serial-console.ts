import { GatewayShell, type GatewayShellContext } from '../shell/gateway-shell';
import { UbootPrompt } from './uboot-prompt';

/** The gateway behind a serial console: the shell's facts plus the root password from its label. */
export interface SerialConsoleGateway {
  gatewayId: string;
  hostname: string;
  bspVersion: string;
  rootPassword: string;
  model?: string;
}

/** How a serial console behaves and where it writes. */
export interface SerialConsoleOptions {
  gateway: SerialConsoleGateway;
  io: { write(chunk: string): Promise<void> };
  /** Pause after a wrong password, like getty/login; default 1000 ms. */
  loginFailureDelayMs?: number;
  /** Time from `reboot` to U-Boot's "Hit any key to stop autoboot"; default 3000 ms. */
  rebootDelayMs?: number;
  /** How long U-Boot waits for that key before booting Linux; default 3000 ms. */
  autobootDelayMs?: number;
  onReboot?(): void;
  /** Extra shell settings (clock, follow interval) for tests. */
  shellContext?: Partial<GatewayShellContext>;
}

type ConsoleState = 'username' | 'password' | 'waiting' | 'shell' | 'autoboot' | 'uboot' | 'stopped';

const LOGIN_USER = 'root';

/**
 * A gateway's serial console: `<hostname> login:` → `Password:` (not echoed) → GatewayShell. A wrong user or
 * password answers `Login incorrect` and asks again; leaving the shell (exit, Ctrl-D) returns to the login prompt,
 * as getty does. `reboot` goes through U-Boot, where a key during "Hit any key to stop autoboot" opens its `=> `
 * prompt (UbootPrompt: `loady`, `loadx`); else Linux boots to the login prompt. Writes are sequential.
 */
export class SerialConsole {
  readonly #options: SerialConsoleOptions;
  #state: ConsoleState = 'username';
  #username = '';
  #password = '';
  #lastWasCarriageReturn = false;
  #shell: GatewayShell | undefined;
  #uboot: UbootPrompt | undefined;
  #output: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: SerialConsoleOptions) {
    this.#options = options;
  }

  /** Prints the issue banner and the login prompt. */
  start(): Promise<void> {
    return this.#showLogin();
  }

  /** Characters received from the serial line. */
  input(data: string): void {
    if (this.#state === 'shell') {
      this.#shell?.input(data);
      return;
    }
    if (this.#state === 'autoboot') {
      // The key that stops the countdown is taken by it, as U-Boot does; what follows goes to the prompt.
      this.#stopAutoboot();
      data = data.slice(1);
    }
    if (this.#state === 'uboot') {
      this.#uboot?.input(data);
      return;
    }
    for (const character of data) this.#inputLoginCharacter(character);
  }

  /** Stops the console and any command running in its shell. */
  stop(): void {
    this.#state = 'stopped';
    clearTimeout(this.#timer);
    this.#shell?.stop();
  }

  #inputLoginCharacter(character: string): void {
    const wasCarriageReturn = this.#lastWasCarriageReturn;
    this.#lastWasCarriageReturn = character === '\r';
    if (this.#state !== 'username' && this.#state !== 'password') return;
    const isPassword = this.#state === 'password';
    if (character === '\r' || (character === '\n' && !wasCarriageReturn)) {
      void this.#send('\r\n');
      if (isPassword) this.#checkLogin();
      else if (this.#username === '') void this.#send(this.#loginPrompt());
      else this.#askPassword();
      return;
    }
    if (character === '\n') return;
    if (character === '\x03') {
      void this.#send('^C\r\n');
      void this.#showLogin();
      return;
    }
    if (character === '\x7f' || character === '\b') {
      if (isPassword) this.#password = this.#password.slice(0, -1);
      else if (this.#username !== '') {
        this.#username = this.#username.slice(0, -1);
        void this.#send('\b \b');
      }
      return;
    }
    if (character < ' ') return;
    if (isPassword) {
      if (this.#password.length < 256) this.#password += character;
    } else if (this.#username.length < 64) {
      this.#username += character;
      void this.#send(character);
    }
  }

  #askPassword(): void {
    this.#state = 'password';
    this.#password = '';
    void this.#send('Password: ');
  }

  #checkLogin(): void {
    const isAccepted = this.#username === LOGIN_USER && this.#password === this.#options.gateway.rootPassword;
    this.#password = '';
    if (isAccepted) {
      this.#startShell();
      return;
    }
    this.#state = 'waiting';
    this.#timer = setTimeout(() => {
      void this.#send('Login incorrect\r\n');
      void this.#showLogin();
    }, this.#options.loginFailureDelayMs ?? 1_000);
  }

  #startShell(): void {
    this.#state = 'shell';
    const { gateway } = this.#options;
    const shell = new GatewayShell(
      {
        gatewayId: gateway.gatewayId,
        hostname: gateway.hostname,
        bspVersion: gateway.bspVersion,
        model: gateway.model,
        ...this.#options.shellContext,
        onReboot: () => {
          isRebooting = true;
          this.#options.onReboot?.();
        },
      },
      {
        write: (chunk) => this.#send(chunk),
        exit: () => {
          if (this.#shell !== shell || this.#state === 'stopped') return;
          this.#shell = undefined;
          if (isRebooting) this.#reboot();
          else void this.#send('\r\n').then(() => this.#showLogin());
        },
      },
    );
    let isRebooting = false;
    this.#shell = shell;
    void this.#output.then(() => shell.start());
  }

  #reboot(): void {
    this.#state = 'waiting';
    void this.#send('[   12.204311] reboot: Restarting system\r\n');
    this.#timer = setTimeout(() => {
      void this.#send(
        [
          '',
          'U-Boot 2018.03-kona (Mar 03 2020 - 12:00:00 +0000)',
          '',
          'Hit any key to stop autoboot:  3',
        ].join('\r\n'),
      );
      this.#state = 'autoboot';
      this.#timer = setTimeout(() => this.#bootLinux(), this.#options.autobootDelayMs ?? 3_000);
    }, this.#options.rebootDelayMs ?? 3_000);
  }

  #stopAutoboot(): void {
    clearTimeout(this.#timer);
    this.#state = 'uboot';
    const uboot = new UbootPrompt({
      write: (chunk) => this.#send(chunk),
      ...(this.#options.shellContext?.receiveFile
        ? { receiveFile: this.#options.shellContext.receiveFile }
        : {}),
      boot: () => {
        if (this.#uboot === uboot && this.#state === 'uboot') this.#bootLinux();
      },
    });
    this.#uboot = uboot;
    void this.#send('\r\n');
    void uboot.start();
  }

  #bootLinux(): void {
    this.#state = 'waiting';
    this.#uboot = undefined;
    void this.#send(
      [
        '',
        'Starting kernel ...',
        '',
        '[    0.000000] Booting Linux on physical CPU 0x0',
        'INIT: version 2.88 booting',
        'Starting OAM agent: oam-agent.',
        '',
      ].join('\r\n'),
    );
    void this.#showLogin();
  }

  #loginPrompt(): string {
    return `${this.#options.gateway.hostname} login: `;
  }

  #showLogin(): Promise<void> {
    if (this.#state === 'stopped') return this.#output;
    this.#state = 'username';
    this.#username = '';
    this.#password = '';
    const { gateway } = this.#options;
    return this.#send(
      `\r\nTektelic Kona Linux ${gateway.bspVersion} ${gateway.hostname} ttyS0\r\n\r\n${this.#loginPrompt()}`,
    );
  }

  #send(chunk: string): Promise<void> {
    if (this.#state === 'stopped') return this.#output;
    this.#output = this.#output
      .then(() => this.#options.io.write(chunk))
      .catch(() => {
        this.stop();
      });
    return this.#output;
  }
}
