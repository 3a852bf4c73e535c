import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withoutEscapeSequences } from '../../../../electron/services/serial/newline';
import { runSerialTriage } from '../../../../electron/services/serial/serial-triage';
import { PasswordPromptWatch } from '../../../../electron/services/terminal-core/password-prompt';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { collectRegexesUsed, findSuperLinearShapes } from '../../../helpers/regex-shape';
import { ScriptedConsole, scriptedShell } from '../../../helpers/scripted-console';
import { readingsWithOutput } from '../../../helpers/triage-readings';

const FIXTURES_FOLDER = new URL('../../../fixtures/triage/', import.meta.url);

/** A console at a login prompt that logs root in, runs commands like scriptedShell, and logs out on `exit`. */
function loggingInShell() {
  const shell = scriptedShell({ 'ping -c 3 -W 2 8.8.8.8': '3 packets transmitted, 3 received\r\n' });
  return (line: string) => {
    if (line === '' || line === 'exit') return `${line}\r\nkona login: `;
    if (line === 'root') return 'root\r\nPassword: ';
    if (line === 'label-pass') return '\r\nroot@kona:~# ';
    return shell(line);
  };
}

describe('the regexes that read console output', () => {
  it('have no shape that retries a run of characters from each of its characters', async () => {
    const used = await collectRegexesUsed(async () => {
      for (const name of readdirSync(FIXTURES_FOLDER)) {
        const output = readFileSync(new URL(name, FIXTURES_FOLDER), 'latin1');
        assessHealth(readingsWithOutput(output));
        assessHealth({
          ...readingsWithOutput(output),
          addresses: { command: 'ifconfig', output, exitCode: 0 },
          routes: { command: 'route -n', output, exitCode: 0 },
        });
      }
      const prompt = new PasswordPromptWatch();
      prompt.received(Buffer.from('[sudo] password for root: '));
      void prompt.isActive;
      withoutEscapeSequences('\x1b[>0;276;0c');
      await runSerialTriage(new ScriptedConsole(loggingInShell()), {
        password: 'label-pass',
        steps: [{ key: 'ping', command: 'ping -c 3 -W 2 8.8.8.8' }],
      });
      await runSerialTriage(
        new ScriptedConsole((line) => (line === '' ? '\r\n# ' : `${line}\r\nPress any key to continue `)),
        { steps: [{ key: 'uptime', command: 'uptime' }] },
      );
    });
    expect(used.length).toBeGreaterThan(30);
    expect(used.flatMap((pattern) => findSuperLinearShapes(pattern))).toEqual([]);
  });

  it('would have caught the shapes that froze the main process', () => {
    const before = [
      /(\d+) packets transmitted, (\d+) (?:packets )?received/,
      /\r+\n/g,
      /\|\s*([a-z][a-z ]*?):\s*(.+?)\s*$/,
      /\bup\s+(.*?),\s+(?:\d+ users?,\s+)?load average/,
    ];
    for (const pattern of before) expect(findSuperLinearShapes(pattern)).not.toEqual([]);
  });
});
