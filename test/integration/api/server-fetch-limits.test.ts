import { createServer, type Server, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, createServerFetch, TimeoutError } from '../../../electron/services/api';

// Node drops a Request's abort signal once the Request is garbage collected (nodejs/node#55428); the test
// collects garbage while the call waits, as a long-running app does.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A server on loopback that accepts every connection and never answers a byte. */
async function silentServer(): Promise<{ url: string; server: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, server, sockets };
}

describe('server fetch time limits', () => {
  let silent: Awaited<ReturnType<typeof silentServer>> | undefined;
  afterEach(async () => {
    for (const socket of silent?.sockets ?? []) socket.destroy();
    await new Promise((resolve) => silent?.server.close(resolve));
    silent = undefined;
  });

  it('ends a call to a server that never sends headers at its limit, saying so, through garbage collection', async () => {
    silent = await silentServer();
    const client = new ApiClient({ baseUrl: silent.url, fetch: createServerFetch(), timeoutMs: 400 });
    const pressure = setInterval(collectGarbage, 20);
    try {
      const error = await client.call('getCurrentUser', {}, { accessToken: 'token' }).then(
        () => null,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).message).toBe('No answer from getCurrentUser within 0.4 s');
    } finally {
      clearInterval(pressure);
    }
  });
});
