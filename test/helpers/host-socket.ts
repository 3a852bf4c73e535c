import WebSocket from 'ws';
import { HOST_KEY_FRAGMENT_NAME, hostProtocols } from '../../electron/shared/ipc/host-key';

/**
 * Opens a printed `Field Kit UI:` link as a browser would and returns the key the host handed over in the
 * redirect's fragment ('' when the answer carried none).
 */
export async function exchangeLink(url: string): Promise<string> {
  const answer = await fetch(url, { redirect: 'manual' });
  await answer.body?.cancel();
  const hash = new URL(answer.headers.get('location') ?? '/', url).hash;
  const prefix = `#${HOST_KEY_FRAGMENT_NAME}=`;
  return hash.startsWith(prefix) ? hash.slice(prefix.length) : '';
}

/**
 * A WebSocket to the host at `origin` as its page opens one: that Origin (unless `headers` says another), the key
 * as a subprotocol (when given).
 */
export function createHostSocket(
  origin: string,
  key: string | undefined,
  headers: Record<string, string> = {},
) {
  return new WebSocket(`${origin.replace('http', 'ws')}/ipc`, hostProtocols(key), {
    headers: { origin, ...headers },
  });
}

/** What became of a socket to the host: open, closed by it with a code and reason, or refused over HTTP. */
export type SocketOutcome =
  | { kind: 'open'; socket: WebSocket }
  | { kind: 'closed'; code: number; reason: string }
  | { kind: 'refused'; status: number };

/** The id of the call settleSocket makes: below any id a test uses. */
const SETTLE_CALL_ID = -1;

/** Waits until a socket opens and either stays open (the next event turn) or is closed, or is refused. */
export function settleSocket(socket: WebSocket): Promise<SocketOutcome> {
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve({ kind: 'refused', status: response.statusCode ?? 0 });
    });
    socket.once('close', (code, reason) => resolve({ kind: 'closed', code, reason: reason.toString() }));
    socket.once('error', (error) => {
      if (socket.readyState !== WebSocket.CLOSED) return;
      reject(error);
    });
    // A refusal past the handshake arrives as the first frame after open: a call answered proves it was not.
    socket.once('open', () => {
      const onMessage = (data: WebSocket.RawData, isBinary: boolean) => {
        if (isBinary || (JSON.parse(data.toString()) as { id?: unknown }).id !== SETTLE_CALL_ID) return;
        socket.off('message', onMessage);
        resolve({ kind: 'open', socket });
      };
      socket.on('message', onMessage);
      socket.send(JSON.stringify({ id: SETTLE_CALL_ID, channel: 'app:info' }));
    });
  });
}

/** Exchanges the link and resolves a socket once open, as the page's own (rejects when it cannot connect). */
export async function openHostSocket(url: string): Promise<WebSocket> {
  const socket = createHostSocket(new URL(url).origin, await exchangeLink(url));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}
