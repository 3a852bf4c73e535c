// `chart-100k-ms`: a 100,000-point series drawn by LineChart in Chromium, from the moment the samples are handed
// to the chart (grouping included) until the first frame with the chart is painted. The page is a tiny one
// built by Vite for this bench (LineChart alone, no app shell), served on 127.0.0.1 and opened in Debian's
// Chromium, so the figure is the chart's and nothing else's.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build } from 'vite';
import { launchBrowser } from '../helpers/browser';
import type { BenchFigure } from './report';

declare global {
  interface Window {
    /** Set by the benchmark page once its chart is mounted. */
    benchReady?: boolean;
    /** The benchmark page's chart render: draws `count` points, answers the milliseconds it took. */
    renderChart?(count: number): Promise<number>;
  }
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const COMPONENTS = join(ROOT, 'renderer', 'src', 'lib', 'components');
/** Points in the measured series. */
export const CHART_POINTS = 100_000;
/** Measured rounds after one warm-up; the median is reported. */
const ROUNDS = 7;

const PAGE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>chart bench</title></head>
<body style="margin:0"><div id="chart" style="width:1200px"></div><script type="module" src="./main.ts"></script></body></html>`;

const PAGE_SCRIPT = `import { mount, unmount } from 'svelte';
import LineChart from ${JSON.stringify(join(COMPONENTS, 'LineChart.svelte'))};
import { groupSamplesBySeries } from ${JSON.stringify(join(COMPONENTS, 'chart-data.ts'))};

// A frame is painted once the rendering step after requestAnimationFrame has run: a message posted from the
// animation-frame callback is delivered after that step.
function afterNextPaint(callback) {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => callback();
    channel.port2.postMessage(null);
  });
}

window.renderChart = (count) => {
  const start = Date.UTC(2026, 0, 1);
  const samples = new Array(count);
  for (let index = 0; index < count; index++)
    samples[index] = { timeMs: start + index * 60_000, value: 50 + 20 * Math.sin(index / 700) + (index % 13) / 4 };
  const target = document.getElementById('chart');
  return new Promise((resolve) => {
    let isDrawn = false;
    const startedAt = performance.now();
    const series = groupSamplesBySeries(samples, 'bench');
    const app = mount(LineChart, {
      target,
      props: {
        label: 'bench',
        series,
        ondraw: () => {
          if (isDrawn) return;
          isDrawn = true;
          afterNextPaint(() => {
            const elapsed = performance.now() - startedAt;
            unmount(app);
            resolve(elapsed);
          });
        },
      },
    });
  });
};
window.benchReady = true;
`;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

function serve(folder: string): Promise<Server> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(folder, path === '/' ? 'index.html' : path);
    if (!file.startsWith(folder)) {
      response.writeHead(404).end();
      return;
    }
    const stream = createReadStream(file);
    stream.on('error', () => response.writeHead(404).end());
    stream.on('open', () => {
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      stream.pipe(response);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Builds the bench page, draws the series ROUNDS times in Chromium and reports the median time. */
export async function runViewsChartBench(): Promise<BenchFigure[]> {
  // Inside the repository (out/ is git-ignored) so the page's imports resolve against its node_modules.
  await mkdir(join(ROOT, 'out'), { recursive: true });
  const folder = await mkdtemp(join(ROOT, 'out', 'chart-bench-'));
  const outDir = join(folder, 'out');
  let server: Server | null = null;
  let browser: Awaited<ReturnType<typeof launchBrowser>> | null = null;
  try {
    await writeFile(join(folder, 'index.html'), PAGE_HTML);
    await writeFile(join(folder, 'main.ts'), PAGE_SCRIPT);
    await build({
      root: folder,
      configFile: false,
      base: './',
      logLevel: 'error',
      plugins: [svelte()],
      build: { outDir, emptyOutDir: true, target: 'es2022' },
    });
    server = await serve(outDir);
    const { port } = server.address() as AddressInfo;
    browser = await launchBrowser({ stepTimeoutMs: 60_000 });
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.waitForFunction(() => window.benchReady === true);
    const render = () => page.evaluate((count) => window.renderChart!(count), CHART_POINTS);
    await render();
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) times.push(await render());
    times.sort((left, right) => left - right);
    const median = times[Math.floor(times.length / 2)]!;
    return [
      {
        name: 'chart-100k-ms',
        value: Math.round(median * 10) / 10,
        unit: 'ms',
        target: '<= 150',
        note:
          `LineChart (uPlot) with ${CHART_POINTS.toLocaleString('en')} points in headless Chromium, samples handed ` +
          `over → first frame painted; median of ${ROUNDS} (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)})`,
      },
    ];
  } finally {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await rm(folder, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) console.log(JSON.stringify(await runViewsChartBench(), null, 2));
