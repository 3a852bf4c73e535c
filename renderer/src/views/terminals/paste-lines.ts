/** How many lines of a paste the confirmation shows. */
const PASTE_PREVIEW_LINES = 3;

/** What a paste holds, for the question before several lines go to a root shell. */
interface PasteLines {
  /** Lines it would run: a final line break ends the last line, it does not start another. */
  count: number;
  /** Its first lines (at most PASTE_PREVIEW_LINES), without their line breaks. */
  first: string[];
}

/** Counts the lines of a paste (CR LF, CR and LF each end one), and keeps the first few to show. */
export function readPasteLines(text: string): PasteLines {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return { count: text === '' ? 0 : lines.length, first: lines.slice(0, PASTE_PREVIEW_LINES) };
}

/** True when a paste holds several lines: each would run as a command, as soon as it arrives. */
export function isMultiLinePaste(text: string): boolean {
  return readPasteLines(text).count > 1;
}
