import type { ChildProcess } from 'node:child_process';

/** How long the page is kept: as long as the link in it can work (LINK_LIFETIME_MS of the host). */
export const HANDOFF_PAGE_LIFETIME_MS: number;
/** Writes a page that forwards a browser to `url`, readable by this user alone (0600 in a 0700 folder). */
export function writeHandoffPage(url: string, folder?: string): Promise<{ path: string; remove(): void }>;
/** Opens `url` through a handoff page: the opener gets the page's path, never the URL. */
export function openThroughHandoffPage(
  url: string,
  options?: { opener?: string; folder?: string; onError?: (error: Error) => void },
): Promise<{ path: string; child: ChildProcess; remove(): void }>;
