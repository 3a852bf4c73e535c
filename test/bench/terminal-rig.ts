import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { demoConsoleGateway } from '../../electron/app/demo-terminals';
import { execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { MemoryStore } from '../../electron/services/credentials';
import type { Fixture, RunningSimulator } from '../../simulator';
import { stopChild } from '../helpers/child-process';
import { spawnSimulator, type SimulatorProcess } from '../helpers/simulator-process';
import {
  launchBrowser,
  launchDebuggableBrowser,
  type BrowserSession,
  type DebuggableBrowserSession,
} from '../helpers/browser';
import type { ScriptablePage } from '../helpers/cdp-page';
import { ensureRendererBuilt } from '../e2e/support/renderer-build';
import type { HostProcessConfig } from './host-process';
import { cpuSpent, readCpu, type TimeShares } from './process-cpu';
import { signIn } from '../e2e/support/login-page';

/** The browser host in demo mode with the simulator's SSH side, and Chromium watching its terminals. */
export interface TerminalRig {
  /** The host's URL, with its token. */
  url: string;
  /** The host's process: its own with `simulatorProcess`, else this one. */
  hostPid: number;
  browser: BrowserSession | DebuggableBrowserSession;
  page: Page;
  /** Errors the page reported (console errors, uncaught exceptions). */
  pageErrors: string[];
  /** An online demo gateway, its name and its root password (from the fixture). */
  gateway: { id: string; name: string; rootPassword: string };
  /** The simulator's process, when it runs in one (`simulatorProcess`). */
  simulatorPid?: number;
  /** The in-process simulator (not with `simulatorProcess`), for fault injection. */
  simulator?: RunningSimulator;
  close(): Promise<void>;
}

const execFileAsync = promisify(execFile);

/** The simulator's `nice` level in the SSH rig: the lowest priority (see startTerminalRig). */
const SIMULATOR_NICENESS = 19;

/** The size the desktop app's window opens at (electron/main/window.ts): terminals are measured at that size. */
const APP_WINDOW_SIZE = { width: 1280, height: 820 };

const SILENT_LOG = { info: () => undefined, error: () => undefined };

// Installed before the page loads (exported for the field-mode test). Per terminal it keeps the last few chunks of output (to spot a flood's end);
// while `capturing`, every byte. Times are the page's clock, taken when xterm has *written* the
// bytes, not when they arrived: an empty write queued behind a chunk calls back once xterm parsed that chunk.
// - `floodWrittenAt[id]`: a flood's `sha256` line was written;
// - `totalWrittenAt`: `expectedTotal` captured bytes were written;
// - `echoLatencies`: a keystroke (`keySentAt`) to the animation frame after its echo `%` was written.
// Captured chunks are kept as the app hands them over, not copied: each is a view of its own WebSocket message,
// which nothing writes to, and copying 50 MB on the page's main thread would be charged to the flood.
// (`__name`: tsx compiles with keepNames, which wraps functions handed to page.evaluate in a helper.)
export const PROBE_SCRIPT = `
globalThis.__name = globalThis.__name || ((target) => target);
window.fieldKitTerminalProbe = {
  capturing: false,
  chunks: [],
  total: 0,
  expectedTotal: Infinity,
  totalWrittenAt: undefined,
  recent: {},
  floodWrittenAt: {},
  keySentAt: [],
  echoLatencies: [],
  onBytes(id, bytes) {
    if (this.capturing) {
      this.chunks.push(bytes);
      this.total += bytes.length;
      if (this.total >= this.expectedTotal && this.totalWrittenAt === undefined) {
        this.afterWritten(id, (at) => (this.totalWrittenAt = at));
        this.expectedTotal = Infinity;
      }
    }
    const recent = (this.recent[id] = this.recent[id] || []);
    recent.push(bytes.slice(-160));
    if (recent.length > 2) recent.shift();
    if (this.keySentAt.length > 0 && bytes.includes(37)) {
      const sent = [];
      for (const byte of bytes) if (byte === 37 && this.keySentAt.length > 0) sent.push(this.keySentAt.shift());
      this.afterWritten(id, () => requestAnimationFrame(() => {
        const now = performance.now();
        for (const at of sent) this.echoLatencies.push(now - at);
      }));
    }
    if (this.floodWrittenAt[id] === undefined) {
      let end = '';
      for (const chunk of recent) {
        for (let index = Math.max(0, chunk.length - 160); index < chunk.length; index += 1) {
          end += String.fromCharCode(chunk[index]);
        }
      }
      if (/sha256 [0-9a-f]{64}\\r\\n/.test(end)) {
        this.floodWrittenAt[id] = null;
        this.afterWritten(id, (at) => (this.floodWrittenAt[id] = at));
      }
    }
  },
  // Forgets a terminal's recent output and flood time, before the next flood.
  reset(id) {
    this.recent[id] = [];
    delete this.floodWrittenAt[id];
  },
  // Calls back with the time once xterm has written everything handed to it so far (the app writes right after
  // telling the probe, so the empty write waits a microtask to queue behind it).
  afterWritten(id, callback) {
    queueMicrotask(() => this.terminals[id].write('', () => callback(performance.now())));
  },
};
`;

/** A terminal as the probe sees it (xterm's Terminal, for what the benchmark reads and builds). */
interface ProbedTerminal {
  constructor: new (options: object) => {
    open(element: HTMLElement): void;
    write(data: Uint8Array, callback: () => void): void;
    dispose(): void;
  };
  options: { fontSize?: number; fontFamily?: string; scrollback?: number; cursorBlink?: boolean };
  cols: number;
  rows: number;
  selectAll(): void;
  getSelection(): string;
  element?: HTMLElement;
  buffer: {
    active: {
      length: number;
      getLine(index: number): { isWrapped: boolean; translateToString(trim: boolean): string } | undefined;
    };
  };
}

/** PROBE_SCRIPT's probe plus what TerminalPane adds to it, as page scripts see it on `window`. */
interface ProbeWindow {
  fieldKitTerminalProbe: {
    capturing: boolean;
    chunks: Uint8Array[];
    total: number;
    expectedTotal: number;
    totalWrittenAt: number | undefined;
    floodWrittenAt: Record<string, number | null>;
    keySentAt: number[];
    echoLatencies: number[];
    onBytes(id: string, bytes: Uint8Array): void;
    reset(id: string): void;
    terminals: Record<string, ProbedTerminal>;
    serializers?: Record<string, () => string>;
  };
}

declare global {
  interface Window {
    /** The terminal probe, on the pages the terminal tests and benchmarks drive (absent elsewhere). */
    fieldKitTerminalProbe?: ProbeWindow['fieldKitTerminalProbe'];
  }
}

/**
 * Starts the browser host (demo, `ssh: true`, a memory keychain, a fresh data folder) and Chromium with the
 * terminal probe installed; `close()` stops both and deletes the folder.
 */
export async function startTerminalRig(
  options: {
    simulatorProcess?: boolean;
    /** Start Chromium with a DevTools port, so the measured part can run over a bare CdpPage. */
    debuggable?: boolean;
  } = {},
): Promise<TerminalRig> {
  const rendererDir = await ensureRendererBuilt();
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-terminals-'));
  let simulatorProcess: SimulatorProcess | undefined;
  let hostProcess: HostProcess | undefined;
  let host: StartedHost | undefined;
  let gateway: { id: string; name: string; rootPassword: string };
  if (options.simulatorProcess) {
    // As in the field, the relay and the gateway are other machines; and as Electron's main is, the host is a
    // process of its own: each side's work is measured apart from the benchmark's. The relay and gateway cost a
    // laptop nothing; here they share its cores, at the lowest priority, so that they take only what the app
    // leaves rather than preempting the page.
    simulatorProcess = await spawnSimulator(['--ssh', '--offline-fraction', '0'], {
      niceness: SIMULATOR_NICENESS,
    });
    const relay = await readRelayLine(simulatorProcess);
    const fixture = await readFixture();
    hostProcess = await spawnHostProcess({
      dataDir,
      rendererDir,
      baseUrl: simulatorProcess.url,
      demoAccounts: fixture.accounts.map(({ username, password, role }) => ({ username, password, role })),
      relay,
    });
    const first = demoConsoleGateway(fixture);
    gateway = { id: first.id, name: first.name, rootPassword: first.rootPassword };
  } else {
    host = await startHost({
      demo: true,
      simulator: { ssh: true, offlineFraction: 0 },
      dataDir,
      rendererDir,
      credentials: { store: new MemoryStore(), keychain: 'session-only' },
      log: SILENT_LOG,
    });
    const first = demoConsoleGateway(host.simulator!.fixture);
    gateway = { id: first.id, name: first.name, rootPassword: first.rootPassword };
  }
  const browser = options.debuggable
    ? await launchDebuggableBrowser({ stepTimeoutMs: 30_000, windowSize: APP_WINDOW_SIZE })
    : await launchBrowser({ stepTimeoutMs: 30_000 });
  const pageErrors: string[] = [];
  browser.page.on('pageerror', (error) => pageErrors.push(error.message));
  browser.page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await browser.page.addInitScript(PROBE_SCRIPT);
  return {
    url: (hostProcess ?? host!).url,
    hostPid: hostProcess?.pid ?? process.pid,
    browser,
    page: browser.page,
    pageErrors,
    gateway,
    simulatorPid: simulatorProcess?.child.pid,
    ...(host?.simulator ? { simulator: host.simulator } : {}),
    async close() {
      await browser.close();
      await host?.close();
      await hostProcess?.stop();
      await simulatorProcess?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const RELAY_LINE = /^SSH relay on ([\d.]+):(\d+) \(user (\S+), password (\S+)\)$/;

/** The relay a simulator process printed right after its listening line. */
function readRelayLine(
  simulator: SimulatorProcess,
): Promise<{ host: string; port: number; username: string; password: string }> {
  return new Promise((resolve, reject) => {
    const check = () => {
      for (const line of simulator.output) {
        const match = line.match(RELAY_LINE);
        if (match) {
          simulator.child.stdout?.off('data', check);
          resolve({ host: match[1]!, port: Number(match[2]), username: match[3]!, password: match[4]! });
          return true;
        }
      }
      return false;
    };
    if (check()) return;
    simulator.child.stdout?.on('data', () => setImmediate(check));
    simulator.child.once('exit', () => reject(new Error('the simulator exited before printing its relay')));
  });
}

/** The demo tenant of a running simulator process (same seed and flags, so the same ids and passwords). */
async function readFixture(): Promise<Fixture> {
  const { stdout } = await execFileAsync(
    process.execPath,
    ['--import', 'tsx', 'simulator/cli.ts', '--print-fixture', '--offline-fraction', '0'],
    { cwd: join(import.meta.dirname, '..', '..'), maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Fixture;
}

/** The line test/bench/host-process.ts prints once it listens (as `npm run host` does). */
const HOST_PROCESS_URL_LINE = /^Field Kit UI: (\S+)$/;

/** A browser host running test/bench/host-process.ts. */
interface HostProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts test/bench/host-process.ts and resolves once it prints its URL; rejects with its output if it exits first. */
function spawnHostProcess(config: HostProcessConfig): Promise<HostProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'host-process.ts'), JSON.stringify(config)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line);
      const match = line.match(HOST_PROCESS_URL_LINE);
      if (match) resolve({ url: match[1]!, pid: child.pid!, stop });
    });
    child.once('exit', (code) =>
      reject(new Error(`the host process exited (${code}) before listening:\n${output.join('\n')}`)),
    );
  });
}

/** Signs in to the demo profile as its first account and opens the Terminals view. */
export async function signInAndOpenTerminals(page: Page, url: string): Promise<void> {
  await signIn(page, url, /^Use /);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
  await page.getByRole('heading', { name: 'Terminals', level: 1 }).waitFor();
}

/** Opens "Reverse SSH to a gateway", answers the root-password prompt, and waits for the new tab. */
export async function openReverseTerminal(
  page: Page,
  gatewayId: string,
  rootPassword: string,
): Promise<void> {
  await page.getByRole('button', { name: 'Reverse SSH to a gateway' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reverse SSH to a gateway' });
  // The gateway field takes a name, a MAC or (as here) the gateway's ID.
  await dialog.getByLabel('Gateway', { exact: true }).fill(gatewayId);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  const passwordField = dialog.getByLabel('Root password of the gateway');
  await passwordField.waitFor({ timeout: 60_000 });
  await passwordField.fill(rootPassword);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await dialog.waitFor({ state: 'detached', timeout: 90_000 });
}

/** Waits until the shown terminal's screen or scrollback (xterm's buffer, via the serialize addon) has `text`. */
export async function waitForTerminalText(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(
    (expected) => {
      const id = document
        .querySelector('.pane:not([hidden]) [data-terminal-id]')
        ?.getAttribute('data-terminal-id');
      const probe = window.fieldKitTerminalProbe!;
      return Boolean(id && probe.serializers?.[id]?.().includes(expected));
    },
    text,
    { polling: 100, timeout: timeoutMs },
  );
}

/** Types into the shown terminal as a user would; `\r` presses Enter. */
export async function typeInTerminal(page: Page, text: string): Promise<void> {
  await page.locator('.pane:not([hidden]) .xterm-helper-textarea').focus();
  const parts = text.split('\r');
  for (const [index, part] of parts.entries()) {
    if (part) await page.keyboard.type(part);
    if (index < parts.length - 1) await page.keyboard.press('Enter');
  }
}

/** What a flood check found: bytes of flood text received, the gateway's hash and the page's. */
export interface FloodCheck {
  bytes: number;
  expected: string;
  actual: string;
  /** From Enter to xterm having written the `sha256` line (page clock). */
  elapsedMs: number;
  /** Keystroke (`%`, never part of a flood) to the first frame after xterm wrote its echo, in ms. */
  echoLatenciesMs: number[];
}

/** How to run a flood check. */
export interface FloodCheckOptions {
  /** Type `%` this often during the flood and time its echo (default: no keystrokes). */
  keystrokeIntervalMs?: number;
  /** Keep the received bytes in the page for `measureXtermAlone` (default: dropped). */
  keepBytes?: boolean;
  /** Called once xterm has written the flood (seen within 250 ms), before the page hashes what it captured. */
  onWritten?: () => Promise<void>;
}

/**
 * From now on the probe keeps every byte the page's terminals receive (and counts them in `total`); with
 * `expectedTotal`, it notes in `totalWrittenAt` when xterm has written that many. Returns the page's clock.
 */
export async function startCapturing(page: ScriptablePage, expectedTotal?: number): Promise<number> {
  return page.evaluate((expected) => {
    const probe = window.fieldKitTerminalProbe!;
    probe.chunks = [];
    probe.total = 0;
    probe.expectedTotal = expected ?? Number.POSITIVE_INFINITY;
    probe.totalWrittenAt = undefined;
    probe.capturing = true;
    return performance.now();
  }, expectedTotal ?? null);
}

/**
 * Runs `flood <megabytes>` in the shown terminal and hashes, in the page, exactly the flood bytes the terminal
 * received (from the first flood line to the `sha256` line).
 */
export async function checkFloodInPage(
  page: ScriptablePage,
  megabytes: number,
  timeoutMs: number,
  options: FloodCheckOptions = {},
): Promise<FloodCheck> {
  await startCapturing(page);
  await page.evaluate(() =>
    document.querySelector<HTMLElement>('.pane:not([hidden]) .xterm-helper-textarea')?.focus(),
  );
  await page.type(`flood ${megabytes}`);
  const startedAt = await page.evaluate(() => {
    const probe = window.fieldKitTerminalProbe!;
    probe.reset(
      document.querySelector('.pane:not([hidden]) [data-terminal-id]')?.getAttribute('data-terminal-id') ??
        '',
    );
    return performance.now();
  });
  await page.type('\r');
  let isFlooding = true;
  const typing = (async () => {
    if (!options.keystrokeIntervalMs) return;
    for (let count = 0; isFlooding && count < 100_000; count += 1) {
      await page.evaluate(() => {
        const probe = window.fieldKitTerminalProbe!;
        probe.keySentAt.push(performance.now());
      });
      await page.type('%');
      await new Promise((resolve) => setTimeout(resolve, options.keystrokeIntervalMs));
    }
  })();
  const written = page.waitFor(
    () => {
      const id =
        document.querySelector('.pane:not([hidden]) [data-terminal-id]')?.getAttribute('data-terminal-id') ??
        '';
      const probe = window.fieldKitTerminalProbe!;
      return typeof probe.floodWrittenAt[id] === 'number';
    },
    undefined,
    { pollingMs: 250, timeoutMs },
  );
  try {
    await written;
    await options.onWritten?.();
  } finally {
    isFlooding = false;
    await typing;
  }
  // Clear the typed `%` from the shell's command line (Ctrl-U).
  if (options.keystrokeIntervalMs) await page.type('\x15');
  const result = await page.evaluate(async (keepBytes) => {
    const probe = window.fieldKitTerminalProbe!;
    probe.capturing = false;
    const id =
      document.querySelector('.pane:not([hidden]) [data-terminal-id]')?.getAttribute('data-terminal-id') ??
      '';
    const writtenAt = probe.floodWrittenAt[id]!;
    const all = new Uint8Array(probe.total);
    let offset = 0;
    for (const chunk of probe.chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    if (!keepBytes) probe.chunks = [];
    const echoLatenciesMs = probe.echoLatencies;
    probe.echoLatencies = [];
    probe.keySentAt = [];
    const find = (needle: string, from: number, backwards: boolean): number => {
      const bytes = Array.from(needle, (character) => character.charCodeAt(0));
      const matches = (at: number) => bytes.every((byte, index) => all[at + index] === byte);
      if (backwards) {
        for (let at = all.length - bytes.length; at >= from; at -= 1) if (matches(at)) return at;
      } else {
        for (let at = from; at <= all.length - bytes.length; at += 1) if (matches(at)) return at;
      }
      return -1;
    };
    const start = find('\r\n00000000 ', 0, false) + 2;
    const end = find('sha256 ', 0, true);
    const expected = new TextDecoder().decode(all.subarray(end + 7, end + 7 + 64));
    // Keystroke echoes (`%`) land between flood lines; the flood itself never contains one.
    const body = all.subarray(start, end).filter((byte) => byte !== 37);
    const digest = await crypto.subtle.digest('SHA-256', body);
    const actual = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
    return { bytes: body.length, expected, actual, echoLatenciesMs, writtenAt };
  }, options.keepBytes ?? false);
  const { writtenAt, ...check } = result;
  return { ...check, elapsedMs: writtenAt - startedAt };
}

/** xterm alone varies by ±20% from pass to pass: its figures are the median of this many passes. */
const XTERM_ALONE_PASSES = 3;

/** What xterm alone measured: its write rate and what Chromium spent per MB, each the median over the passes. */
export interface XtermAloneMeasurement {
  megabytesPerSecond: number;
  /** CPU milliseconds of Chromium (every process of it) per MB written. */
  chromiumMsPerMegabyte: number;
  bytes: number;
  cols: number;
  rows: number;
}

/**
 * One pass of measureXtermWriteInPage on the last kept flood's bytes, timed, with Chromium's CPU (`browserPid` and
 * the processes under it) read from /proc. The bytes are dropped afterwards unless `keepBytes`.
 */
export async function measureXtermAlonePass(
  page: ScriptablePage,
  browserPid: number,
  options: { keepBytes?: boolean; repeat?: number } = {},
): Promise<XtermAloneMeasurement> {
  const chromium = { chromium: { pid: browserPid, withDescendants: true } };
  const before = await readCpu(chromium);
  const measured = await measureXtermWriteInPage(page, options);
  const spent = cpuSpent(before, await readCpu(chromium));
  return { ...measured, chromiumMsPerMegabyte: (spent.chromium * 1_000) / (measured.bytes / 1e6) };
}

/**
 * measureXtermAlonePass over XTERM_ALONE_PASSES passes on the last kept flood's bytes; the rate and Chromium's CPU
 * per MB are each the median over the passes. The bytes are dropped after the last.
 */
export async function measureXtermAlone(
  page: ScriptablePage,
  browserPid: number,
  options: { repeat?: number } = {},
): Promise<XtermAloneMeasurement> {
  const passes = [];
  for (let pass = 0; pass < XTERM_ALONE_PASSES; pass += 1) {
    passes.push(
      await measureXtermAlonePass(page, browserPid, { keepBytes: pass < XTERM_ALONE_PASSES - 1, ...options }),
    );
  }
  return {
    ...passes[0]!,
    megabytesPerSecond: median(passes.map((pass) => pass.megabytesPerSecond)),
    chromiumMsPerMegabyte: median(passes.map((pass) => pass.chromiumMsPerMegabyte)),
  };
}

/** The median of each share over spans (so the three need not add up to 1). */
export function medianTimeShares(spans: TimeShares[]): TimeShares {
  return {
    running: median(spans.map((span) => span.running)),
    waiting: median(spans.map((span) => span.waiting)),
    idle: median(spans.map((span) => span.idle)),
  };
}

/** "running 66%, waiting for a core 20%, asleep 14%". */
export function formatTimeShares(shares: TimeShares): string {
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  return `running ${percent(shares.running)}, waiting for a core ${percent(shares.waiting)}, asleep ${percent(shares.idle)}`;
}

/** "20%": the share of a span a thread waited for a core. */
export function formatWaiting(shares: TimeShares): string {
  return `${Math.round(shares.waiting * 100)}%`;
}

/** The middle value (the upper middle of an even count); `values` is not changed. */
export function median(values: number[]): number {
  return [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;
}

/**
 * xterm.js's own write rate in this page for the bytes the last kept flood delivered: a fresh Terminal of the same
 * kind, attached beside the real one, is handed the same chunks (`repeat` times over, default once: a short flood
 * would be timed mostly on the terminal's setup) and timed until the last write's callback. Returns MB/s (10^6
 * bytes) and the bytes written. The captured bytes are dropped afterwards unless `keepBytes` (for another pass).
 */
async function measureXtermWriteInPage(
  page: ScriptablePage,
  options: { keepBytes?: boolean; repeat?: number } = {},
): Promise<{ megabytesPerSecond: number; bytes: number; cols: number; rows: number }> {
  return page.evaluate(
    async ({ keepBytes, repeat }) => {
      const probe = window.fieldKitTerminalProbe!;
      const shown = Object.values(probe.terminals)[0]!;
      // Same font and geometry as the shown terminal: a narrower one wraps each flood line into two rows, twice the work.
      const size = shown.element?.getBoundingClientRect() ?? { width: 800, height: 480 };
      const host = document.createElement('div');
      host.style.cssText = `position:fixed;left:0;top:0;width:${size.width}px;height:${size.height}px;opacity:0.01;`;
      document.body.append(host);
      const terminal = new shown.constructor({
        fontSize: shown.options.fontSize,
        fontFamily: shown.options.fontFamily,
        cursorBlink: shown.options.cursorBlink,
        scrollback: shown.options.scrollback,
        cols: shown.cols,
        rows: shown.rows,
      });
      terminal.open(host);
      const chunks = Array.from({ length: repeat }, () => probe.chunks).flat();
      const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const startedAt = performance.now();
      // xterm discards input beyond ~50 MB pending: keep a few MB queued, refilled as writes complete.
      await new Promise<void>((resolve) => {
        let next = 0;
        let pending = 0;
        let done = 0;
        const pump = () => {
          while (next < chunks.length && pending < 4_000_000) {
            const chunk = chunks[next]!;
            next += 1;
            pending += chunk.length;
            terminal.write(chunk, () => {
              pending -= chunk.length;
              done += 1;
              if (done === chunks.length) resolve();
              else pump();
            });
          }
        };
        if (chunks.length === 0) resolve();
        else pump();
      });
      const elapsedMs = performance.now() - startedAt;
      terminal.dispose();
      host.remove();
      if (!keepBytes) probe.chunks = [];
      return {
        megabytesPerSecond: bytes / 1e6 / (elapsedMs / 1000),
        bytes,
        cols: shown.cols,
        rows: shown.rows,
      };
    },
    { keepBytes: options.keepBytes ?? false, repeat: options.repeat ?? 1 },
  );
}
