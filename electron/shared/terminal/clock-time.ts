/**
 * Formats a local time as `HH:mm:ss.SSS`, or `HH:mm:ss` with `withMilliseconds` false: the one clock format of the
 * terminals (line stamps in the log and on screen, the connection lines written into a terminal).
 */
export function formatClockTime(time: Date, withMilliseconds = true): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const seconds = `${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
  return withMilliseconds ? `${seconds}.${pad(time.getMilliseconds(), 3)}` : seconds;
}
