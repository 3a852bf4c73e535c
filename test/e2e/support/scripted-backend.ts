import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';

/** What a scripted channel answers: a Result, as main would send it. */
export type ScriptedResult =
  { ok: true; value: unknown } | { ok: false; error: { code: string; message: string; details?: unknown } };

/** A channel handler of the scripted backend. */
export type ScriptedHandler = (input: unknown) => ScriptedResult | Promise<ScriptedResult>;

/** One call the renderer made. */
export interface RecordedCall {
  channel: string;
  input: unknown;
}

/** A stand-in for main: serves the built renderer and answers the IPC wire from a script. */
export interface ScriptedBackend {
  url: string;
  calls: RecordedCall[];
  handle(channel: string, handler: ScriptedHandler): void;
  push(event: string, payload: unknown): void;
  /** Cuts every open WebSocket; `refuse` makes new ones fail until `accept()`. */
  dropConnections(): void;
  refuseConnections(): void;
  acceptConnections(): void;
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Starts a backend on 127.0.0.1 (a free port) that speaks the renderer's WebSocket wire from handlers the test
 * sets. For UI behaviours that need answers a real server gives rarely (an untrusted certificate, a lost link).
 */
export async function startScriptedBackend(rendererDir: string): Promise<ScriptedBackend> {
  const handlers = new Map<string, ScriptedHandler>();
  const calls: RecordedCall[] = [];
  const sockets = new Set<WebSocket>();
  let isRefusing = false;

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const relative = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    readFile(join(rendererDir, relative)).then(
      (body) => {
        response.writeHead(200, {
          'content-type': CONTENT_TYPES[extname(relative)] ?? 'application/octet-stream',
        });
        response.end(body);
      },
      () => {
        response.writeHead(404).end();
      },
    );
  });
  // A handler that throws answers INTERNAL, as main's router does, instead of leaving the call unanswered.
  const answer = async (channel: string, input: unknown): Promise<ScriptedResult> => {
    const handler = handlers.get(channel);
    if (!handler)
      return { ok: false, error: { code: 'INTERNAL', message: `No scripted answer for ${channel}` } };
    try {
      return await handler(input);
    } catch (error) {
      return { ok: false, error: { code: 'INTERNAL', message: String(error) } };
    }
  };
  const socketsServer = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (isRefusing || new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/ipc') {
      socket.destroy();
      return;
    }
    socketsServer.handleUpgrade(request, socket, head, (webSocket) => {
      sockets.add(webSocket);
      webSocket.on('close', () => sockets.delete(webSocket));
      webSocket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id: number; channel: string; input?: unknown };
        calls.push({ channel: message.channel, input: message.input });
        void answer(message.channel, message.input).then((result) =>
          webSocket.send(JSON.stringify({ id: message.id, result })),
        );
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    calls,
    handle: (channel, handler) => void handlers.set(channel, handler),
    push(event, payload) {
      for (const socket of sockets) socket.send(JSON.stringify({ event, payload }));
    },
    dropConnections() {
      for (const socket of sockets) socket.terminate();
    },
    refuseConnections() {
      isRefusing = true;
    },
    acceptConnections() {
      isRefusing = false;
    },
    async close() {
      for (const socket of sockets) socket.terminate();
      socketsServer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
