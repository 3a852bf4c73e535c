import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { buildContentSecurityPolicy, CONTENT_TYPES, resolveInside } from '../app';
import { APP_HOST } from './window';

/**
 * Answers `app://fieldkit/<path>` from the built renderer folder: files only inside it, index.html for
 * client-side routes, the strict CSP on every answer, 404 for anything else (including another host).
 */
export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const headers = (type: string) => ({
    'content-type': type,
    'content-security-policy': buildContentSecurityPolicy(),
    'x-content-type-options': 'nosniff',
  });
  return async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') {
      return new Response('Not found', { status: 404, headers: headers('text/plain') });
    }
    const pathname = url.pathname === '/' ? '/index.html' : url.pathname;
    let path = resolveInside(rendererDir, pathname);
    if (!path) return new Response('Not found', { status: 404, headers: headers('text/plain') });
    const stats = await stat(path).catch(() => null);
    if ((!stats || !stats.isFile()) && extname(pathname) === '') path = join(rendererDir, 'index.html');
    else if (!stats || !stats.isFile())
      return new Response('Not found', { status: 404, headers: headers('text/plain') });
    try {
      const body = await readFile(path);
      return new Response(body, {
        status: 200,
        headers: headers(CONTENT_TYPES[extname(path)] ?? 'application/octet-stream'),
      });
    } catch {
      return new Response('Not found', { status: 404, headers: headers('text/plain') });
    }
  };
}
