// `npm run bench -- <suite>`: runs one benchmark suite, prints its table and writes bench-results/<suite>.json.
import { reportFigures, type BenchFigure } from './report';

const SUITES: Record<string, () => Promise<BenchFigure[]>> = {
  api: async () => (await import('./api')).runApiBench(),
  ipc: async () => (await import('./ipc')).runIpcBench(),
  fleet: async () => (await import('./fleet')).runFleetBench(),
  field: async () => (await import('./field')).runFieldBench(),
  terminal: async () => (await import('./terminal')).runTerminalBench(),
  hardening: async () => [
    ...(await (await import('./hardening')).runHardeningBench()),
    ...(await (await import('./hardening-parsers')).runParserBench()),
  ],
  visit: async () => (await import('./visit')).runVisitBench(),
  acceptance: async () => (await import('./acceptance')).runAcceptanceBench(),
  serial: async () => [
    ...(await (await import('./serial')).runSerialReplugBench()),
    ...(await (await import('./serial')).runYmodemBench()),
  ],
  'serial-ymodem': async () => (await import('./serial')).runYmodemBench(),
  views: async () => [
    ...(await (await import('./views-gateways')).runViewsGatewaysBench()),
    ...(await (await import('./views-chart')).runViewsChartBench()),
  ],
};

const suite = process.argv[2];
const run = suite ? SUITES[suite] : undefined;
if (!run) {
  console.error(`usage: npm run bench -- <suite>   (suites: ${Object.keys(SUITES).join(', ')})`);
  process.exit(2);
}
const figures = await run();
reportFigures(suite!, figures);
process.exit(0);
