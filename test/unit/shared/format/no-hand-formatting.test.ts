import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../..');

/** The one module allowed to call Intl and build dates: every other file goes through it. */
const FORMAT_MODULE = 'electron/shared/format/';

/** Ways of writing a time or number by hand, each named as the report says it. */
const RULES: ReadonlyArray<{ name: string; pattern: RegExp }> = [
  { name: 'toLocaleString', pattern: /\.toLocale(?:Date|Time)?String\(/ },
  {
    name: 'Intl formatter',
    pattern: /\bIntl\.(?:DateTimeFormat|RelativeTimeFormat|NumberFormat|DurationFormat|ListFormat)\b/,
  },
  {
    name: 'date fields',
    pattern: /\.get(?:UTC)?(?:FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)\(\)/,
  },
  { name: 'Date string', pattern: /\.to(?:Date|Time|UTC|GMT|LocaleDate|LocaleTime)String\(/ },
  { name: 'toISOString', pattern: /\.toISOString\(/ },
];

/**
 * Files that may still write a time by hand, each with why. An entry that no longer matches anything fails the
 * test, so the list only shrinks.
 */
const ALLOWED: ReadonlyArray<{ file: string; rule: string; reason: string }> = [
  {
    file: 'electron/shared/time.ts',
    rule: 'toISOString',
    reason:
      'toIsoTime: the machine form of a time (`<time datetime>`, CSV columns), the same in every locale',
  },
  {
    file: 'electron/shared/terminal/clock-time.ts',
    rule: 'date fields',
    reason:
      'terminal line stamps (HH:mm:ss.SSS): a machine format written into the session log, and the same on screen ' +
      'so that a line seen can be found in the log',
  },
  {
    file: 'electron/services/terminal-core/session-log.ts',
    rule: 'date fields',
    reason: 'session log file names (yyyy-mm-dd_HH-mm-ss): a machine format that sorts by time',
  },
  { file: 'electron/main/file-log.ts', rule: 'toISOString', reason: 'the app log: ISO 8601 line stamps' },
  {
    file: 'electron/services/audit/redaction.ts',
    rule: 'toISOString',
    reason: 'a Date in an audit record, as JSON',
  },
  {
    file: 'electron/services/integrations/laptop-test.ts',
    rule: 'toISOString',
    reason: 'the JSON payload of a test message sent to a broker',
  },
  {
    file: 'electron/services/commissioning/engine.ts',
    rule: 'toISOString',
    reason: 'the description of a backup kept on the gateway: a name that sorts by time, read in any locale',
  },
  {
    file: 'electron/services/reports/export.ts',
    rule: 'Intl formatter',
    reason: "report file names (yyyy-mm-dd_HHmm) in the report's zone: a machine format",
  },
  {
    file: 'renderer/src/views/report/report-download.ts',
    rule: 'Date string',
    reason: 'the local day a first opening is kept under: a key compared, never shown',
  },
  // The site report writes with shared/format (report-words.ts); these fixed English times are left for the
  // acceptance check's own text and the zone line, which names the zone without words.
  {
    file: 'electron/shared/report/report-time.ts',
    rule: 'Intl formatter',
    reason: "the acceptance check's fixed times and the report's zone name and offset",
  },
];

/** Every TypeScript and Svelte source of electron/ and renderer/src/, as [path from the repository, text]. */
function sources(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|svelte)$/.test(entry.name))
        found.push([relative(ROOT, path), readFileSync(path, 'utf8')]);
    }
  };
  walk(join(ROOT, 'electron'));
  walk(join(ROOT, 'renderer/src'));
  return found;
}

interface Finding {
  file: string;
  line: number;
  rule: string;
}

/** Each line of `text` that writes a time or number by hand, comments left out. */
function findHandFormatting(file: string, text: string): Finding[] {
  return text.split('\n').flatMap((line, index) => {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) return [];
    return RULES.filter((rule) => rule.pattern.test(line)).map((rule) => ({
      file,
      line: index + 1,
      rule: rule.name,
    }));
  });
}

function isAllowed(finding: Finding): boolean {
  return ALLOWED.some((entry) => entry.file === finding.file && entry.rule === finding.rule);
}

describe('hand formatting of times and numbers', () => {
  const findings = sources()
    .filter(([file]) => !file.startsWith(FORMAT_MODULE))
    .flatMap(([file, text]) => findHandFormatting(file, text));

  it('is nowhere in electron/ or renderer/src/ but the format module: each offence named by file:line', () => {
    const offences = findings
      .filter((finding) => !isAllowed(finding))
      .map(
        (finding) =>
          `${finding.file}:${finding.line} ${finding.rule} (use format from electron/shared/format)`,
      );
    expect(offences).toEqual([]);
  });

  it('allows only what still happens: an entry nothing matches is taken off the list', () => {
    const unused = ALLOWED.filter(
      (entry) => !findings.some((finding) => finding.file === entry.file && finding.rule === entry.rule),
    ).map((entry) => `${entry.file} ${entry.rule}`);
    expect(unused).toEqual([]);
  });

  it('finds each way of writing a time by hand, and not the same words in a comment', () => {
    const sample = [
      'const a = new Date(at).toLocaleString();',
      'const b = new Intl.DateTimeFormat(undefined).format(at);',
      "const c = `${date.getHours()}:${String(date.getMinutes()).padStart(2, '0')}`;",
      'const d = count.toLocaleString("en-US");',
      '// toLocaleString() in a comment says why, it does not format',
      'const e = new Date(at).toISOString();',
      'const f = new Date(at).toDateString();',
    ].join('\n');
    expect(
      findHandFormatting('sample.ts', sample).map((finding) => `${finding.line} ${finding.rule}`),
    ).toEqual([
      '1 toLocaleString',
      '2 Intl formatter',
      '3 date fields',
      '4 toLocaleString',
      '6 toISOString',
      '7 Date string',
    ]);
  });
});
