// Benchmark suite `hardening` (issue 22): the browser host's peak memory while it refuses a 300 MB answer. The host
// runs in a process of its own, signed in to a fake server on 127.0.0.1 that streams the answer from one reused
// 64 KB piece (nothing near 300 MB is ever allocated on either side); the host's peak RSS is reset just before
// each call (/proc/<pid>/clear_refs) and read from VmHWM after the refusal.
// Issue 28: the same host's peak memory while a fleet preview expands a gateway group, and a site pack reads a
// customer's gateways, from a server whose gateway lists answer `hasNext: true` forever, 500 gateways a page.
import { writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { answerLogin, startFakeOamServer } from '../helpers/fake-oam-server';
import { answerHostilePaging, type HostilePaging } from '../helpers/hostile-pager';
import { readMemoryMegabytes, startHostProcess, type HostProcess } from '../helpers/host-process';
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

/** A host process of its own, signed in to the fake server at `serverUrl`. */
async function startSignedInHost(serverUrl: string): Promise<HostProcess> {
  const host = await startHostProcess();
  const saved = (await host.invoke('profiles:save', { name: 'Bench', baseUrl: serverUrl })) as {
    value: { id: string };
  };
  await host.invoke('session:login', {
    profileId: saved.value.id,
    username: 'tech@acme.test',
    password: 'secret',
    remember: 'none',
  });
  return host;
}

/**
 * Runs the suite: ROUNDS refusals of a streamed answer without Content-Length, then one with it declared; then each
 * hostile pager run in a host of its own.
 */
export async function runHardeningBench(): Promise<BenchFigure[]> {
  let declareLength = false;
  let sent: Promise<number> = Promise.resolve(0);
  let paging: HostilePaging = { kind: 'forever' };
  const answerPaging = answerHostilePaging(() => paging);
  const server = await startFakeOamServer((request, response) => {
    if (request.url === '/api/auth/login' || request.url === '/api/auth/token')
      answerLogin(request, response);
    else if (request.url?.includes('/gateways?')) answerPaging(request, response);
    else sent = streamHugeAnswer(response, declareLength);
  });
  const host = await startSignedInHost(server.url);
  try {
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
    const pageRequests = () => server.requests.filter((seen) => seen.url.includes('/gateways?')).length;
    /**
     * Peak RSS of a fresh host while `work` runs against `answer`, and the page requests it made. A host of its own
     * per run: V8 keeps the heap an earlier run grew, which would count towards the next run's peak.
     */
    const underPager = async (
      what: string,
      answer: HostilePaging,
      work: (pagerHost: HostProcess) => Promise<string>,
    ) => {
      paging = answer;
      const pagerHost = await startSignedInHost(server.url);
      try {
        const before = pageRequests();
        await writeFile(`/proc/${pagerHost.pid}/clear_refs`, '5');
        const message = await work(pagerHost);
        const peak = (await readMemoryMegabytes(pagerHost.pid)).peak;
        if (!((await pagerHost.invoke('app:info')) as { ok: boolean }).ok)
          throw new Error('the host stopped answering');
        return { what, peak, pages: pageRequests() - before, message };
      } finally {
        await pagerHost.stop();
      }
    };
    const preview = async (pagerHost: HostProcess): Promise<string> => {
      const result = (await pagerHost.invoke('fleet:preview', {
        change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
        gatewayGroupId: 'bench-group',
      })) as { ok: boolean; error?: { message: string } };
      if (result.ok) throw new Error('an endless group was previewed');
      return result.error?.message ?? '';
    };
    const pack = async (pagerHost: HostProcess): Promise<string> => {
      const started = (await pagerHost.invoke('site-pack:prepare', {
        scope: { kind: 'customer', id: 'bench-customer' },
        selection: { kind: 'ids', ids: ['no-such-gateway'] },
      })) as { ok: boolean; error?: { message: string } };
      if (!started.ok) throw new Error(`site-pack:prepare: ${started.error?.message}`);
      // The preparation runs on after its answer: its status says when it has ended (bounded: 10 min).
      for (let attempt = 0; attempt < 6_000; attempt++) {
        const status = (await pagerHost.invoke('site-pack:status')) as {
          value: { job: { phase: string; message?: string } | null };
        };
        const job = status.value.job;
        if (job && !['list', 'details', 'writing'].includes(job.phase)) return job.message ?? job.phase;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the site pack did not end');
    };
    const pager = [
      await underPager('fleet preview, 2 KB names', { kind: 'forever', nameLength: 2048 }, preview),
      await underPager('fleet preview, short names', { kind: 'forever' }, preview),
      await underPager(
        'site pack, 100,000 gateways of 2 KB names announced',
        { kind: 'large', totalElements: 100_000, nameLength: 2048 },
        pack,
      ),
      await underPager('site pack, hasNext forever, 2 KB names', { kind: 'forever', nameLength: 2048 }, pack),
    ];
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
      {
        name: 'host-peak-rss-hostile-pager-mb',
        value: round(Math.max(...pager.map((run) => run.peak))),
        unit: 'MB',
        target: '< 300',
        note: pager
          .map(
            (run) => `${run.what}: ${round(run.peak)} MB, ${run.pages} pages, "${run.message.slice(0, 160)}"`,
          )
          .join('; '),
      },
    ];
  } finally {
    await host.stop();
    await server.close();
  }
}
