// A serial console for triage tests: each line the triage sends is answered by a script, as a gateway would.
import { EventEmitter } from 'node:events';
import type { TriageConsole } from '../../electron/services/serial/serial-triage';
import type { TerminalState } from '../../electron/services/terminal-core/terminal-session';

/**
 * A scripted console: each line the triage sends (up to CR) is answered by `answer`, which gets the command and
 * the end-marker echo the shell would run, and returns what the gateway prints (or undefined for silence).
 */
export class ScriptedConsole extends EventEmitter implements TriageConsole {
  state: TerminalState = 'open';
  readonly options = { txNewline: 'cr' as const };
  readonly sent: string[] = [];
  #line = '';

  constructor(private readonly answer: (line: string, console: ScriptedConsole) => string | undefined) {
    super();
  }

  async writeBytes(data: Uint8Array): Promise<void> {
    for (const character of Buffer.from(data).toString('latin1')) {
      if (character === '\x03') {
        this.sent.push('^C');
        this.print('^C\r\n# ');
        continue;
      }
      if (character !== '\r') {
        this.#line += character;
        continue;
      }
      const line = this.#line;
      this.#line = '';
      this.sent.push(line);
      const reply = this.answer(line, this);
      if (reply !== undefined) this.print(reply);
    }
  }

  print(text: string): void {
    queueMicrotask(() => this.emit('received', Buffer.from(text, 'latin1')));
  }
}

/** A BusyBox-like shell: echoes the line, prints `outputs[command]` (or "not found"), then the marker and prompt. */
export function scriptedShell(outputs: Record<string, string>, options: { isEchoing?: boolean } = {}) {
  return (line: string) => {
    const echo = options.isEchoing === false ? '' : `${line}\r\n`;
    const match = /^(.*); echo (__FK_END_\S+_)\$\?$/.exec(line);
    if (!match) return `${echo}\x1b[1;32mroot@kona\x1b[0m:~# `;
    const [, command, marker] = match;
    const output = outputs[command!];
    const status = output === undefined ? 127 : 0;
    const printed = output ?? `-sh: ${command!.split(' ')[0]}: not found\r\n`;
    return `${echo}${printed}${marker}${status}\r\nroot@kona:~# `;
  };
}
