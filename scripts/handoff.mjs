// Hands the browser host's link to a browser without putting its token on any command line: `xdg-open <url>`
// would show the token to every local user in /proc/<pid>/cmdline. The link goes into a page only this user can
// read (0600 in a 0700 folder); the opener gets the page's path, and the page forwards the browser to the link.
// The link works once and expires after 5 minutes (electron/host/host-server.ts), so the page is useless after
// that: it is deleted then, or when the host stops.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long the page is kept: as long as the link in it can work (LINK_LIFETIME_MS of the host). */
export const HANDOFF_PAGE_LIFETIME_MS = 5 * 60 * 1000;

const escapeHtml = (text) => text.replace(/[&<>"']/g, (character) => `&#${character.codePointAt(0)};`);

/**
 * Writes a page that forwards a browser to `url`, readable by this user alone. Resolves with its path and a
 * `remove()` that deletes it at once (synchronous, so it also works in an exit handler; safe to call twice).
 */
export async function writeHandoffPage(url, folder = tmpdir()) {
  const directory = await mkdtemp(join(folder, 'fieldkit-handoff-')); // mkdtemp makes it 0700
  const path = join(directory, 'open-field-kit.html');
  const link = escapeHtml(url);
  const page = `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${link}">
<title>Opening Field Kit…</title>
<p>Opening Field Kit… If nothing happens, open the link printed in the terminal.</p>
`;
  await writeFile(path, page, { encoding: 'utf8', mode: 0o600, flag: 'wx' });
  return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * Opens `url` in the desktop's browser through a handoff page: `opener` (default `xdg-open`) is given the
 * page's path, never the URL. The page is deleted after HANDOFF_PAGE_LIFETIME_MS or by `remove()`.
 * `onError` hears why the browser could not be opened.
 */
export async function openThroughHandoffPage(url, { opener = 'xdg-open', folder, onError } = {}) {
  const page = await writeHandoffPage(url, folder);
  const timer = setTimeout(() => page.remove(), HANDOFF_PAGE_LIFETIME_MS);
  timer.unref();
  const child = spawn(opener, [page.path], { stdio: 'ignore', detached: true });
  child.on('error', (error) => onError?.(error));
  child.unref();
  return {
    path: page.path,
    child,
    remove: () => {
      clearTimeout(timer);
      page.remove();
    },
  };
}
