// `npm run bench -- terminal`: the terminal figures. The SSH ones run the whole app path — the relay and
// gateway shell of a simulator process (`--ssh`), the browser host's TerminalManager in this process, its
// WebSocket, xterm.js in headless Chromium (DOM renderer: the WebGL here is software) — with the flood hashed in the page; the
// serial one is runSerialFloodInChromium. `TERMINAL_BENCH_MB` shrinks the SSH flood on a slow machine.
import type { DebuggableBrowserSession } from '../helpers/browser';
import { CdpPage } from '../helpers/cdp-page';
import { percentile95 } from './terminal-ssh';
import { runSerialFloodInChromium } from './terminal-serial';
import type { BenchFigure } from './report';
import {
  checkFloodInPage,
  measureXtermWriteInPage,
  openReverseTerminal,
  signInAndOpenTerminals,
  startTerminalRig,
  waitForTerminalText,
} from './terminal-rig';

/** Flood size of the SSH figures (the 50 MB); `TERMINAL_BENCH_MB` overrides it on a slow machine. */
export const SSH_FLOOD_MEGABYTES = Number(process.env.TERMINAL_BENCH_MB ?? 50);
/** How often a keystroke is typed during the flood. */
export const KEYSTROKE_INTERVAL_MS = 200;

/** The SSH figures through Chromium: flood vs xterm's own rate, host RSS growth, keystroke-to-echo p95. */
export async function runSshFloodInChromium(megabytes = SSH_FLOOD_MEGABYTES): Promise<BenchFigure[]> {
  const rig = await startTerminalRig({ simulatorProcess: true, debuggable: true });
  let page: CdpPage | undefined;
  try {
    await signInAndOpenTerminals(rig.page, rig.host.url);
    await openReverseTerminal(rig.page, rig.gateway.id, rig.gateway.rootPassword);
    await waitForTerminalText(rig.page, 'root@');
    // Playwright mirrors every WebSocket frame of the page into this process (its Network domain): measure over a
    // bare DevTools connection instead, as the app runs in Electron with nobody watching.
    await (rig.browser as DebuggableBrowserSession).releasePlaywright();
    page = await CdpPage.connect(
      (rig.browser as DebuggableBrowserSession).debuggingPort,
      rig.host.url.split('?')[0]!,
    );
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 50);
    let flood;
    try {
      flood = await checkFloodInPage(page, megabytes, 30 * 60_000, {
        keystrokeIntervalMs: KEYSTROKE_INTERVAL_MS,
        keepBytes: true,
      });
    } finally {
      clearInterval(sampler);
    }
    const xterm = await measureXtermWriteInPage(page);
    const isComplete = flood.actual === flood.expected && flood.bytes === megabytes * 1_000_000;
    const endToEnd = flood.bytes / 1e6 / (flood.elapsedMs / 1000);
    return [
      {
        name: 'ssh-flood-vs-xterm',
        value: isComplete ? Number((endToEnd / xterm.megabytesPerSecond).toFixed(3)) : 0,
        unit: 'ratio',
        target: '>= 0.8',
        note: `${megabytes} MB relay → host → WebSocket → xterm (DOM renderer, ${xterm.cols}×${xterm.rows}), until xterm wrote it: ${endToEnd.toFixed(2)} MB/s vs xterm alone ${xterm.megabytesPerSecond.toFixed(2)} MB/s on the same bytes${isComplete ? ', checksum equal' : ', CHECKSUM MISMATCH'}`,
      },
      {
        name: 'ssh-flood-main-rss-growth-mb',
        value: Number(((rssPeak - rssBefore) / 1e6).toFixed(1)),
        unit: 'MB',
        target: '<= 64',
        note: 'peak RSS of the host process (main) during the flood; relay and gateway run in a simulator process',
      },
      {
        name: 'ssh-keystroke-p95-ms',
        value: Number(percentile95(flood.echoLatenciesMs).toFixed(1)),
        unit: 'ms',
        target: '<= 200',
        note: `${flood.echoLatenciesMs.length} keystrokes typed in Chromium during the flood, each timed to the first frame after xterm wrote its echo`,
      },
    ];
  } finally {
    page?.close();
    await rig.close();
  }
}

/** Every figure of the terminal suite. */
export async function runTerminalBench(): Promise<BenchFigure[]> {
  const ssh = await runSshFloodInChromium();
  const serial = await runSerialFloodInChromium();
  return [...ssh, ...serial];
}
