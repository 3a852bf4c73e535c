// Benchmark suite `hardening` (issue 22): the browser host's peak memory while it refuses a 300 MB answer. The host
// runs in a process of its own, signed in to a fake server on 127.0.0.1 that streams the answer from one reused
// 64 KB piece (nothing near 300 MB is ever allocated on either side); the host's peak RSS is reset just before
// each call (/proc/<pid>/clear_refs) and read from VmHWM after the refusal.
import { writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { answerLogin, startFakeOamServer } from '../helpers/fake-oam-server';
import { readMemoryMegabytes, startHostProcess } from '../helpers/host-process';
import type { BenchFigure } from './report';

const ANSWER_BYTES = 300 * 1024 * 1024;
const PIECE = 'x'.repeat(64 * 1024);
const ROUNDS = 3;

/** Streams a 300 MB JSON answer as the socket drains; resolves the bytes written when it ends or is cut. */
function streamHugeAnswer(response: ServerResponse, declareLength: boolean): Promise<number> {
  const head = '{"id":{"entityType":"USER","id":"u"},"email":"e","authority":"a","padding":"';
  const tail = '"}';
  response.writeHead(200, {
    'content-type': 'application/json',
    ...(declareLength ? { 'content-length': head.length + ANSWER_BYTES + tail.length } : {}),
  });
  response.write(head);
  let written = 0;
  return new Promise((resolve) => {
    response.once('close', () => resolve(written));
    const writeMore = (): void => {
      while (written < ANSWER_BYTES && !response.destroyed) {
        written += PIECE.length;
        if (!response.write(PIECE)) return void response.once('drain', writeMore);
      }
      if (!response.destroyed) response.end(tail);
    };
    writeMore();
  });
}

/** Runs the suite: ROUNDS refusals of a streamed answer without Content-Length, then one with it declared. */
export async function runHardeningBench(): Promise<BenchFigure[]> {
  let declareLength = false;
  let sent: Promise<number> = Promise.resolve(0);
  const server = await startFakeOamServer((request, response) => {
    if (request.url === '/api/auth/login' || request.url === '/api/auth/token')
      answerLogin(request, response);
    else sent = streamHugeAnswer(response, declareLength);
  });
  const host = await startHostProcess();
  try {
    const saved = (await host.invoke('profiles:save', { name: 'Bench', baseUrl: server.url })) as {
      value: { id: string };
    };
    await host.invoke('session:login', {
      profileId: saved.value.id,
      username: 'tech@acme.test',
      password: 'secret',
      remember: 'none',
    });
    const idle = await readMemoryMegabytes(host.pid);
    const refuse = async (): Promise<{ peak: number; sentMb: number; message: string }> => {
      await writeFile(`/proc/${host.pid}/clear_refs`, '5');
      const result = (await host.invoke('api:call', { endpoint: 'getCurrentUser' })) as {
        ok: boolean;
        error?: { message: string };
      };
      if (result.ok) throw new Error('the 300 MB answer was accepted');
      const sentBytes = await sent;
      return {
        peak: (await readMemoryMegabytes(host.pid)).peak,
        sentMb: sentBytes / 1024 / 1024,
        message: result.error?.message ?? '',
      };
    };
    const streamed = [];
    for (let round = 0; round < ROUNDS; round++) streamed.push(await refuse());
    declareLength = true;
    const declared = await refuse();
    if (!((await host.invoke('app:info')) as { ok: boolean }).ok)
      throw new Error('the host stopped answering');
    const worst = Math.max(...streamed.map((round) => round.peak));
    const round = (value: number) => Math.round(value * 10) / 10;
    return [
      {
        name: 'host-peak-rss-300mb-answer-mb',
        value: round(worst),
        unit: 'MB',
        target: '< 300',
        note: `worst of ${ROUNDS} refusals of a 300 MB answer without Content-Length (${streamed.map((item) => round(item.peak)).join(', ')} MB); idle RSS ${round(idle.rss)} MB; the server got ${round(Math.max(...streamed.map((item) => item.sentMb)))} MB out before the cut`,
      },
      {
        name: 'host-peak-rss-300mb-declared-answer-mb',
        value: round(declared.peak),
        unit: 'MB',
        target: '< 300',
        note: `300 MB answer with its Content-Length, refused before reading; the server got ${round(declared.sentMb)} MB out`,
      },
    ];
  } finally {
    await host.stop();
    await server.close();
  }
}
