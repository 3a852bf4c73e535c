/**
 * The address a link printed in a terminal may open, or null: only an http(s) URL without a user name or
 * password (the system browser is not handed `file:`, `javascript:`, a custom scheme or credentials). What comes
 * back is the URL in full, as the confirmation shows it.
 */
export function linkToOpen(printed: string): string | null {
  let url: URL;
  try {
    url = new URL(printed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.href;
}
