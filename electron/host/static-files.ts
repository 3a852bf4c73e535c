import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { CONTENT_TYPES, resolveInside } from '../app';

/** The page served when the renderer has not been built, so the user learns what to do. */
const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>OAM Field Kit</title></head>
<body><main><h1>OAM Field Kit</h1><p>The user interface has not been built yet. Run <code>npm run build</code>, then reload.</p></main></body></html>`;

/**
 * Serves a file of the built renderer. Paths without an extension fall back to index.html (client-side
 * routes); a missing build answers a page saying how to build it. Returns false when nothing matched (404).
 */
export async function serveStatic(
  root: string,
  urlPath: string,
  response: ServerResponse,
  headers: Record<string, string>,
): Promise<boolean> {
  const resolved = resolveInside(root, urlPath === '/' ? '/index.html' : urlPath);
  if (!resolved) return false;
  let path = resolved;
  let stats = await stat(path).catch(() => null);
  if ((!stats || !stats.isFile()) && extname(urlPath) === '') {
    path = join(root, 'index.html');
    stats = await stat(path).catch(() => null);
    if (!stats) {
      response.writeHead(200, { ...headers, 'content-type': CONTENT_TYPES['.html'] ?? 'text/html' });
      response.end(NOT_BUILT_PAGE);
      return true;
    }
  }
  if (!stats || !stats.isFile()) return false;
  const isIndex = path.endsWith(`${sep}index.html`);
  response.writeHead(200, {
    ...headers,
    'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': String(stats.size),
    'cache-control': isIndex ? 'no-store' : 'no-cache',
  });
  await new Promise<void>((resolve) => {
    const stream = createReadStream(path);
    stream.on('error', () => {
      response.destroy();
      resolve();
    });
    stream.on('end', resolve);
    stream.pipe(response);
  });
  return true;
}
