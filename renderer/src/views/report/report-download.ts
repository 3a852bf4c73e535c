/** The bytes of a base64 document (the report as `report:export` returns it). */
export function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/**
 * When Field Kit was opened in this run, to the minute: the report's default "Visit started" (the technician sets
 * the real arrival; midnight, the earlier default, put a false arrival time on every report).
 */
export const APP_OPENED_AT = Math.floor(Date.now() / 60_000) * 60_000;

/** A `datetime-local` input value for a time, in local time. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
