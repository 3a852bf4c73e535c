import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page served when the renderer has not been built, so the user learns what to do. */
const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>OAM Field Kit</title></head>
<body><main><h1>OAM Field Kit</h1><p>The user interface has not been built yet. Run <code>npm run build</code>, then reload.</p></main></body></html>`;

/**
 * Resolves a URL path inside `root`, refusing anything that would leave it (`..`, encoded separators, NUL).
 * Returns null for a refused path.
 */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const resolved = normalize(join(root, decoded));
  const rootWithSeparator = root.endsWith(sep) ? root : root + sep;
  if (resolved !== root && !resolved.startsWith(rootWithSeparator)) return null;
  return resolved;
}

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
