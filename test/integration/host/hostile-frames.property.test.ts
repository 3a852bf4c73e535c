// Property test: whatever arrives on the browser host's WebSocket — any JSON value, objects with odd id, channel
// and input types, text that is not JSON, deep or huge frames — the host process answers it and keeps answering
// app:info, and its memory stays bounded. The host runs as `npm run host` does (electron/host/cli.ts) in a process
// of its own, so a crash is an exit the test sees.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { ROOT } from '../../../build/stale.mjs';
import { MAX_MESSAGE_BYTES } from '../../../electron/host/host-server';
import { createHostSocket, exchangeLink } from '../../helpers/host-socket';

/** Channels whose handlers only read or refuse without a session: arbitrary input can change nothing outside. */
const SAFE_CHANNELS = [
  'app:info',
  'app:notices',
  'profiles:list',
  'profiles:delete',
  'session:get',
  'session:resume',
  'api:call',
  'gateway:command',
  'terminals:list',
  'terminal:write',
  'terminal:close',
  'ssh:replace-host-key',
];
/** Names that are properties of every object: a lookup by `in` or `[]` would find them. */
const PROTOTYPE_NAMES = ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'valueOf'];
/** How far the host's resident memory may grow over the whole run. */
const MAX_RSS_GROWTH_BYTES = 200 * 1024 * 1024;

let folder: string;
let host: ChildProcess;
let origin: string;
let key: string;
const hostOutput: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-hostile-'));
  // Without a session bus the keychain probe fails at once: the host runs session-only and touches no keyring.
  const { DBUS_SESSION_BUS_ADDRESS: _bus, ...environment } = process.env;
  host = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'electron/host/cli.ts',
      '--port',
      '0',
      '--no-build',
      '--data-dir',
      join(folder, 'data'),
    ],
    { cwd: ROOT, env: environment, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Read stderr throughout: a full pipe would block the host's logging, and the test would measure that instead.
  createInterface({ input: host.stderr! }).on('line', (line) => hostOutput.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: host.stdout! }).on('line', (line) => {
      if (line.startsWith('Field Kit UI: ')) resolve(line.slice('Field Kit UI: '.length));
    });
    host.once('exit', (code) => reject(new Error(`host exited (${code}):\n${hostOutput.join('\n')}`)));
  });
  origin = new URL(url).origin;
  key = await exchangeLink(url);
}, 60_000);

afterAll(async () => {
  if (host.exitCode === null && host.signalCode === null) {
    await new Promise<void>((resolve) => {
      host.once('exit', () => resolve());
      host.kill('SIGTERM');
    });
  }
  await rm(folder, { recursive: true, force: true });
});

/** The host's resident set size in bytes, from /proc. */
async function readHostRss(): Promise<number> {
  const status = await readFile(`/proc/${host.pid}/status`, 'utf8');
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kilobytes * 1024;
}

/** A socket to the host with every text answer it received, and a way to wait for answers. */
async function openClient() {
  const socket = createHostSocket(origin, key);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const answers: { id: unknown; result: unknown }[] = [];
  const waiters: { isDone: () => boolean; resolve: () => void }[] = [];
  socket.on('message', (data: WebSocket.RawData, isBinary) => {
    if (isBinary) return;
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    if (!('id' in message)) return; // an event, not an answer
    answers.push({ id: message.id, result: message.result });
    for (const waiter of [...waiters]) {
      if (!waiter.isDone()) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  return {
    socket,
    answers,
    closed,
    /** Resolves once `count` answers in all have arrived. */
    until(count: number): Promise<void> {
      if (answers.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ isDone: () => answers.length >= count, resolve }));
    },
  };
}

let nextInfoId = 1_000_000_000;

/** Sends `app:info` and resolves with its answer. */
async function askAppInfo(client: Awaited<ReturnType<typeof openClient>>): Promise<unknown> {
  const id = nextInfoId++;
  client.socket.send(JSON.stringify({ id, channel: 'app:info' }));
  await client.until(client.answers.length + 1);
  for (;;) {
    const answer = client.answers.find((entry) => entry.id === id);
    if (answer) return answer.result;
    await client.until(client.answers.length + 1);
  }
}

const channelArbitrary = fc.oneof(
  fc.constantFrom(...SAFE_CHANNELS, ...PROTOTYPE_NAMES),
  fc.jsonValue(),
  fc.string({ maxLength: 2_000 }),
);
const frameArbitrary = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        id: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
        channel: channelArbitrary,
        input: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((frame) => JSON.stringify(frame)),
  fc.string({ maxLength: 500 }),
);

/** Frames chosen by hand: each broke something once, or is the largest of its kind the host accepts. */
function handPickedFrames(): string[] {
  // Built as text: JSON.stringify itself overflows the stack on it, which is the point.
  const deep = `${'['.repeat(6_000)}${']'.repeat(6_000)}`;
  return [
    '{"id":1,"channel":{"toString":1},"input":{}}',
    '{"id":2,"channel":"toString","input":{}}',
    '{"id":3,"channel":"__proto__","input":{"toString":1}}',
    `{"id":4,"channel":"api:call","input":{"endpoint":"listGateways","body":${deep}}}`,
    JSON.stringify({ id: 5, channel: 'x'.repeat(8 * 1024 * 1024), input: {} }),
    JSON.stringify({ id: 6, channel: 'app:info', input: 'y'.repeat(MAX_MESSAGE_BYTES - 100) }),
    `{"id":7,"channel":"session:get","input":${deep}}`,
    JSON.stringify([{ id: 8, channel: 'app:info' }]),
    JSON.stringify({ id: '9', channel: 'app:info' }),
    '{"id":1e309,"channel":"app:info"}',
    '{"id":10,"channel":"app:info"',
  ];
}

describe('the browser host under hostile WebSocket frames', () => {
  it('answers every frame, keeps answering app:info, and stays within its memory bound', async () => {
    const client = await openClient();
    const startRss = await readHostRss();
    let peakRss = startRss;
    const send = async (frame: string) => {
      const before = client.answers.length;
      client.socket.send(frame);
      // Every frame gets exactly one answer (an error for anything that is not a good call)…
      await client.until(before + 1);
      // …and the host still serves a good call after it.
      expect(await askAppInfo(client)).toMatchObject({ ok: true, value: { mode: 'browser' } });
      peakRss = Math.max(peakRss, await readHostRss());
    };
    for (const frame of handPickedFrames()) await send(frame);
    await fc.assert(fc.asyncProperty(frameArbitrary, send), { numRuns: 300 });
    expect(host.exitCode).toBeNull();
    expect(peakRss - startRss).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    client.socket.close();
  }, 120_000);

  it('closes only the socket that sends a frame over the size limit, and serves a new one', async () => {
    const client = await openClient();
    client.socket.send(JSON.stringify({ id: 1, channel: 'app:info', input: 'z'.repeat(MAX_MESSAGE_BYTES) }));
    expect(await client.closed).toBe(1009);
    const next = await openClient();
    expect(await askAppInfo(next)).toMatchObject({ ok: true });
    expect(host.exitCode).toBeNull();
    next.socket.close();
  }, 60_000);
});
