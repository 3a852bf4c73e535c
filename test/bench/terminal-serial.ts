// The serial half of `npm run bench -- terminal` (`serial-flood-vs-raw`): the same bytes pushed through a socat
// pty pair are read once by the app — serial service in the browser host → WebSocket → xterm in Chromium, hashed
// in the page (runSerialFloodInChromium) — and once by a bare serialport read loop; the figure is the ratio of the
// two rates.
import { createHash } from 'node:crypto';
import { autoDetect } from '@serialport/bindings-cpp';
import { generateFloodChunks } from '../../simulator/shell/flood';
import { startSocatPair, type SocatPair } from '../helpers/socat';
import type { DebuggableBrowserSession } from '../helpers/browser';
import { CdpPage } from '../helpers/cdp-page';
import type { BenchFigure } from './report';
import { signInAndOpenTerminals, startCapturing, startTerminalRig, type ProbeWindow } from './terminal-rig';

/** What one pass measured. */
export interface SerialFloodMeasurement {
  byteCount: number;
  elapsedMs: number;
  bytesPerMs: number;
  /** True when the reader got exactly the bytes written (SHA-256 equal). */
  isByteExact: boolean;
}

const WRITE_CHUNK_BYTES = 65_536;
const READ_BUFFER_BYTES = 65_536;

/** Printable flood text (the shell's own `flood` lines) of exactly `megabytes` × 10^6 bytes, and its SHA-256. */
function createPayload(megabytes: number): { payload: Buffer; digest: string } {
  const payload = Buffer.from([...generateFloodChunks(Math.round(megabytes * 1_000_000))].join(''), 'latin1');
  return { payload, digest: createHash('sha256').update(payload).digest('hex') };
}

/** Writes the payload into the far end of the pair, one chunk at a time as the pty takes it. */
async function writePayload(path: string, payload: Buffer): Promise<() => Promise<void>> {
  const port = await autoDetect().open({ path, baudRate: 115_200 });
  const writing = (async () => {
    for (let offset = 0; offset < payload.length; offset += WRITE_CHUNK_BYTES) {
      await port.write(payload.subarray(offset, offset + WRITE_CHUNK_BYTES));
    }
  })();
  return async () => {
    await writing;
    await port.close();
  };
}

/** Pushes `megabytes` through a socat pty into a bare serialport read loop and returns the rate (bytes/ms). */
export async function measureRawSerialFlood(options: {
  megabytes: number;
  socat?: SocatPair;
}): Promise<SerialFloodMeasurement> {
  const socat = options.socat ?? (await startSocatPair());
  const { payload, digest } = createPayload(options.megabytes);
  const port = await autoDetect().open({ path: socat.pathA, baudRate: 115_200 });
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
    let received = 0;
    const startedAt = performance.now();
    const finishWriting = await writePayload(socat.pathB, payload);
    while (received < payload.length) {
      const { bytesRead } = await port.read(buffer, 0, buffer.length);
      hash.update(buffer.subarray(0, bytesRead));
      received += bytesRead;
    }
    const elapsedMs = performance.now() - startedAt;
    await finishWriting();
    return {
      byteCount: received,
      elapsedMs,
      bytesPerMs: received / elapsedMs,
      isByteExact: received === payload.length && hash.digest('hex') === digest,
    };
  } finally {
    await port.close();
    if (!options.socat) await socat.cleanup();
  }
}

/**
 * `serial-flood-vs-raw` through the whole app: a serial console opened in the Terminals view on a socat pty by its
 * typed path, `megabytes` written into the pty's far end, timed until xterm has written every byte (and hashed
 * there); divided by a raw read loop's rate over a second socat pair, round by round in the same run. Playwright
 * sets the page up and then lets go; the rounds run over a bare DevTools connection (see CdpPage).
 */
export async function runSerialFloodInChromium(
  options: { megabytes?: number; rounds?: number } = {},
): Promise<BenchFigure[]> {
  const megabytes = options.megabytes ?? 10;
  const { payload, digest } = createPayload(megabytes);
  const appPair = await startSocatPair();
  const rawPair = await startSocatPair();
  const rig = await startTerminalRig({ debuggable: true });
  let page: CdpPage | undefined;
  try {
    await signInAndOpenTerminals(rig.page, rig.host.url);
    await rig.page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = rig.page.getByRole('dialog', { name: 'Serial console' });
    // The port list loads after the dialog opens; choosing before it arrives would be undone.
    await dialog.getByRole('option', { name: 'Demo gateway console' }).waitFor({ state: 'attached' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByRole('textbox', { name: 'Path', exact: true }).fill(appPair.pathA);
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });
    await rig.page.locator('.pane:not([hidden]) [data-terminal-id]').waitFor();
    const browser = rig.browser as DebuggableBrowserSession;
    await browser.releasePlaywright();
    page = await CdpPage.connect(browser.debuggingPort, rig.host.url.split('?')[0]!);
    const rounds: { raw: SerialFloodMeasurement; app: SerialFloodMeasurement }[] = [];
    for (let round = 0; round < (options.rounds ?? 3); round += 1) {
      const raw = await measureRawSerialFlood({ megabytes, socat: rawPair });
      const app = await measureAppFlood(page, appPair.pathB, payload, digest);
      rounds.push({ raw, app });
    }
    const isByteExact = rounds.every(({ raw, app }) => raw.isByteExact && app.isByteExact);
    const ratios = rounds.map(({ raw, app }) => app.bytesPerMs / raw.bytesPerMs).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    const rate = (pick: (round: (typeof rounds)[number]) => SerialFloodMeasurement) =>
      (rounds.reduce((sum, round) => sum + pick(round).bytesPerMs, 0) / rounds.length / 1_000).toFixed(1);
    return [
      {
        name: 'serial-flood-vs-raw',
        value: isByteExact ? Number(median.toFixed(3)) : 0,
        unit: 'ratio',
        target: '>= 0.9',
        note: `${megabytes} MB over a socat pty, median of ${rounds.length} rounds: serial service → host → WebSocket → xterm (until xterm wrote it) ${rate((round) => round.app)} MB/s vs raw read loop ${rate((round) => round.raw)} MB/s on average${isByteExact ? ', byte-exact' : ' (NOT byte-exact)'}`,
      },
    ];
  } finally {
    page?.close();
    await rig.close();
    await appPair.cleanup();
    await rawPair.cleanup();
  }
}

/** Writes the payload into the pty the app's serial console reads, and times it until xterm has written every byte. */
async function measureAppFlood(
  page: CdpPage,
  farEnd: string,
  payload: Buffer,
  digest: string,
): Promise<SerialFloodMeasurement> {
  const startedAt = await startCapturing(page, payload.length);
  const finishWriting = await writePayload(farEnd, payload);
  await page.waitFor(
    () => typeof (window as unknown as ProbeWindow).fieldKitTerminalProbe.totalWrittenAt === 'number',
    undefined,
    { pollingMs: 20, timeoutMs: 10 * 60_000 },
  );
  await finishWriting();
  const received = await page.evaluate(async () => {
    const probe = (window as unknown as ProbeWindow).fieldKitTerminalProbe;
    probe.capturing = false;
    const all = new Uint8Array(probe.total);
    let offset = 0;
    for (const chunk of probe.chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    probe.chunks = [];
    const hash = await crypto.subtle.digest('SHA-256', all);
    return {
      writtenAt: probe.totalWrittenAt!, // the wait above saw it set
      byteCount: all.length,
      digest: Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join(''),
    };
  });
  const elapsedMs = received.writtenAt - startedAt;
  return {
    byteCount: received.byteCount,
    elapsedMs,
    bytesPerMs: received.byteCount / elapsedMs,
    isByteExact: received.byteCount === payload.length && received.digest === digest,
  };
}
