import { readFile } from 'node:fs/promises';

/** The `[hh:mm:ss.mmm] ` each session-log line starts with (docs/adr/0010-line-times-log-and-screen.md). */
const LINE_TIME = /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] /gm;

/** A session log's text without its line times: what the gateway sent and the log's own notes, byte for byte. */
export async function readLogWithoutLineTimes(
  path: string,
  encoding: 'latin1' | 'utf8' = 'latin1',
): Promise<string> {
  return (await readFile(path, encoding)).replace(LINE_TIME, '');
}
