import { afterEach, describe, expect, it } from 'vitest';
import { runSerialTriage } from '../../../../electron/services/serial/serial-triage';
import { setLanguage, translatorFor } from '../../../../electron/shared/i18n';
import { listVisitLines } from '../../../../electron/shared/report/visit-lines';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { TriageResultSchema, type TriageResult } from '../../../../electron/shared/terminal/triage-schemas';
import { triageSentenceWords } from '../../../../electron/shared/terminal/triage-words';
import { ScriptedConsole, scriptedShell as shell } from '../../../helpers/scripted-console';

afterEach(() => setLanguage('en'));

const AT = Date.UTC(2026, 10, 27, 9, 0);

/** A console at a login prompt that takes the password, runs `uptime`, and shows the login prompt after `exit`. */
function loginConsole(onUptime: () => void): ScriptedConsole {
  let isLoggedIn = false;
  return new ScriptedConsole((line) => {
    if (!isLoggedIn && line === '') return '\r\nkona login: ';
    if (!isLoggedIn && line === 'root') return 'root\r\nPassword: ';
    if (!isLoggedIn && line === 'label-pass') {
      isLoggedIn = true;
      return '\r\nroot@kona:~# ';
    }
    if (line === 'exit') return 'exit\r\n\r\nkona login: ';
    if (line.startsWith('uptime')) onUptime();
    return shell({ uptime: ' 10:00:00 up 1 min\r\n', ps: 'PID\r\n' })(line);
  });
}

/** A cancelled run that logged in and out, kept as the visit journal keeps it and read back. */
async function journaledCancelledRun(): Promise<TriageResult> {
  const controller = new AbortController();
  const outcome = await runSerialTriage(
    loginConsole(() => controller.abort()),
    {
      password: 'label-pass',
      signal: controller.signal,
      steps: [
        { key: 'uptime', command: 'uptime' },
        { key: 'processes', command: 'ps' },
      ],
    },
  );
  const result: TriageResult = {
    terminalId: 't-1',
    title: 'gw-1 · 115200 8N1',
    startedAt: AT,
    finishedAt: AT + 5_000,
    outcome: outcome.outcome,
    ...(outcome.problem ? { problem: outcome.problem } : {}),
    commands: outcome.commands,
    health: assessHealth(outcome.readings),
    ...(outcome.consoleLeft ? { consoleLeft: outcome.consoleLeft } : {}),
  };
  return TriageResultSchema.parse(JSON.parse(JSON.stringify(result)));
}

describe('why a serial triage stopped, and how it left the console', () => {
  it('are kept as data: a run made in English is shown in German once the language is German', async () => {
    const result = await journaledCancelledRun();
    expect(triageSentenceWords(result.problem!)).toBe('Cancelled after `uptime` (1 of 2 commands run).');
    expect(triageSentenceWords(result.consoleLeft!)).toBe(
      'Logged out again: diagnostics had logged in as root.',
    );
    setLanguage('de');
    expect(triageSentenceWords(result.problem!)).toBe(
      'Abgebrochen nach `uptime` (1 von 2 Befehlen ausgeführt).',
    );
    expect(triageSentenceWords(result.consoleLeft!)).toBe(
      'Wieder abgemeldet: Die Diagnose hatte sich als root angemeldet.',
    );
  });

  it('are written in the report’s language on its visit lines, whatever the screen’s', async () => {
    const result = await journaledCancelledRun();
    const [line] = listVisitLines([], { triages: [result], translate: translatorFor('de') });
    expect(line?.reason).toBe('Abgebrochen nach `uptime` (1 von 2 Befehlen ausgeführt).');
  });

  it('say the console was closed in the language shown when the port gave no reason', async () => {
    const console = new ScriptedConsole((line) => {
      if (line.startsWith('uptime')) {
        console.state = 'closed';
        console.emit('state', 'closed');
        return undefined;
      }
      return shell({})(line);
    });
    const outcome = await runSerialTriage(console, { steps: [{ key: 'uptime', command: 'uptime' }] });
    setLanguage('de');
    expect(triageSentenceWords(outcome.problem!)).toBe(
      'Der serielle Port ist während der Diagnose verschwunden (die Konsole wurde geschlossen).',
    );
  });

  it('show an older journal’s sentences as they were kept', async () => {
    const kept = { ...(await journaledCancelledRun()) };
    const old = TriageResultSchema.parse({
      ...kept,
      problem: 'Cancelled after `uptime` (1 of 2 commands run).',
      consoleLeft: 'Logged out again: diagnostics had logged in as root.',
    });
    setLanguage('de');
    expect(triageSentenceWords(old.problem!)).toBe('Cancelled after `uptime` (1 of 2 commands run).');
    expect(triageSentenceWords(old.consoleLeft!)).toBe(
      'Logged out again: diagnostics had logged in as root.',
    );
    const [line] = listVisitLines([], { triages: [old], translate: translatorFor('de') });
    expect(line?.reason).toBe('Cancelled after `uptime` (1 of 2 commands run).');
  });
});
