// An HTTP relay on loopback in front of the simulator that rewrites the JSON answers of chosen requests, as a
// hostile server would answer (a record with a field out of range), and passes everything else through unchanged.
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Rewrites one parsed JSON answer; what it returns is sent instead. */
export type AnswerRewrite = (answer: unknown) => unknown;

/** A running relay: `url` to point the app at, `rewritten` counts the answers it changed. */
export interface RewritingProxy {
  url: string;
  readonly rewritten: number;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (a free port) to `targetUrl`, rewriting each JSON answer with `rewrite`. */
export async function startRewritingProxy(
  targetUrl: string,
  rewrite: AnswerRewrite,
): Promise<RewritingProxy> {
  const target = new URL(targetUrl);
  let rewritten = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url ?? '/',
        // Uncompressed, so that the answer can be read and changed here.
        headers: { ...incoming.headers, host: target.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const isJson = String(answer.headers['content-type'] ?? '').includes('application/json');
        if (!isJson) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body = text;
          try {
            body = JSON.stringify(rewrite(JSON.parse(text)));
            rewritten++;
          } catch {
            // Not JSON after all: passed on as it came.
          }
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
          delete headers['transfer-encoding'];
          outgoing.writeHead(answer.statusCode ?? 502, headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get rewritten() {
      return rewritten;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
