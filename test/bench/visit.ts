// The visit journal, two figures:
// * `visit-append-p99-ms`: 10,000 entries appended to an open visit, each written and flushed (fdatasync) before
//   the next; the 99th percentile of one append, from the call to its line being on the disk.
// * `visit-raw-fdatasync-p99-ms`: the same number of bare 300-byte `write` + `fdatasync` calls on the same disk just
//   before: what the disk's flush costs without the journal (hashing, checking, serialising).
// * `visit-verify-20gw-ms`: checking an exported bundle offline (verifyBundle, what `npm run verify-report` runs):
//   a visit of 20 gateways, 400 entries, 10 photos of 300 kB and 20 session logs of 100 kB, with its HTML report;
//   the median of 5 checks.
// * `visit-export-pdf-20gw-ms`: exporting the site report of a visit of 20 gateways, 400 entries (wizard changes,
//   commands, reads) and 10 photos as PDF, as the browser host does it: the journal's lines and photos read, the
//   visit folded from them, the Svelte components rendered on the server, headless Chromium launched and the PDF
//   written. The median of 3 exports
//   after an untimed first one.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CHROMIUM_PATH,
  CHROMIUM_PDF_ARGS,
  ChromiumPdfPrinter,
} from '../../electron/host/chromium-pdf-printer';
import { exportSiteReport, readJournalPhotos, visitFromJournal } from '../../electron/services/reports';
import type { VisitEntry } from '../../electron/shared/visit/journal-entry';
import { gatherVisitEvidence, verifyBundle, Visits, writeVisitBundle } from '../../electron/services/visit';
import { makeVisitEntry } from '../helpers/factories';
import type { BenchFigure } from './report';

const APPENDS = 10_000;
const VERIFY_RUNS = 5;
const EXPORT_RUNS = 3;

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

async function measureRawFlushes(folder: string): Promise<BenchFigure[]> {
  const handle = await open(join(folder, 'raw.jsonl'), 'a', 0o600);
  const line = Buffer.from(`${'x'.repeat(299)}\n`);
  const durations: number[] = [];
  try {
    for (let index = 0; index < APPENDS; index += 1) {
      const started = performance.now();
      await handle.write(line);
      await handle.datasync();
      durations.push(performance.now() - started);
    }
  } finally {
    await handle.close();
  }
  return [
    {
      name: 'visit-raw-fdatasync-p99-ms',
      value: percentile(durations, 0.99),
      unit: 'ms',
      note: `bare write + fdatasync, ${APPENDS} times; p50 ${percentile(durations, 0.5).toFixed(3)} ms`,
    },
  ];
}

async function measureAppends(folder: string): Promise<BenchFigure[]> {
  const visits = new Visits({ dataDir: join(folder, 'append') });
  await visits.load();
  await visits.open({ site: 'Bench roof' });
  const durations: number[] = [];
  for (let index = 0; index < APPENDS; index += 1) {
    const entry = makeVisitEntry(index);
    const started = performance.now();
    await visits.append(entry);
    durations.push(performance.now() - started);
  }
  await visits.shutdown();
  return [
    {
      name: 'visit-append-p99-ms',
      value: percentile(durations, 0.99),
      unit: 'ms',
      target: '<= 5',
      note: `${APPENDS} appends, each flushed; p50 ${percentile(durations, 0.5).toFixed(3)} ms, max ${Math.max(...durations).toFixed(1)} ms`,
    },
  ];
}

/** A PNG signature and random bytes: a photo as far as the journal and the verifier care. */
function photoBytes(size: number): Buffer {
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(size - 8),
  ]);
}

async function measureVerify(folder: string): Promise<BenchFigure[]> {
  const visits = new Visits({ dataDir: join(folder, 'verify') });
  await visits.load();
  await visits.open({ site: 'Harbour warehouse roof' });
  for (let index = 0; index < 400 - 1 - 10 - 20; index += 1) await visits.append(makeVisitEntry(index));
  for (let index = 0; index < 10; index += 1)
    await visits.attachPhoto({ bytes: photoBytes(300_000), caption: `Gateway ${index}` });
  const logs = [];
  for (let index = 0; index < 20; index += 1) {
    const path = join(folder, `acme-gw-${String(index).padStart(4, '0')}_2026-01-15_1200.log`);
    await writeFile(path, `# ip link\n${'eth0: <BROADCAST,MULTICAST,UP> mtu 1500\n'.repeat(2_500)}`);
    logs.push({ path, typed: `acme-gw-${String(index).padStart(4, '0')}` });
  }
  const evidence = await gatherVisitEvidence(visits, logs);
  const written = await exportSiteReport(
    visitFromJournal(evidence.journal.lines, {
      technician: 'tech@acme.demo',
      profileId: 'demo',
      now: Date.now(),
    }),
    join(folder, 'reports'),
  );
  const bundle = join(folder, 'reports', written.baseName);
  await writeVisitBundle(bundle, {
    visitId: evidence.visit.id,
    journal: evidence.journal.bytes,
    reportPaths: [written.htmlPath],
    photos: evidence.photos,
    logs: evidence.logs,
    createdAt: Date.now(),
  });
  await visits.shutdown();
  const durations: number[] = [];
  for (let run = 0; run < VERIFY_RUNS; run += 1) {
    const started = performance.now();
    const verdict = await verifyBundle(bundle);
    durations.push(performance.now() - started);
    if (!verdict.isIntact) throw new Error(`the bench bundle does not verify: ${verdict.problems[0]}`);
  }
  return [
    {
      name: 'visit-verify-20gw-ms',
      value: percentile(durations, 0.5),
      unit: 'ms',
      target: '<= 1000',
      note: `${evidence.journal.entries} entries, 10 photos of 300 kB, 20 logs of 100 kB; median of ${VERIFY_RUNS}`,
    },
  ];
}

/**
 * Ten 1600 × 1200 JPEG photos (quality 85, noisy gradients, about what the app keeps of a phone's photo) drawn and
 * encoded by the same headless Chromium the host prints with.
 */
async function photoJpegs(): Promise<Buffer[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_PDF_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1200 } });
    const photos: Buffer[] = [];
    for (let index = 0; index < 10; index += 1) {
      await page.setContent(
        `<body style="margin:0"><canvas id="photo" width="1600" height="1200"></canvas><script>
          const context = document.getElementById('photo').getContext('2d');
          const image = context.createImageData(1600, 1200);
          for (let offset = 0; offset < image.data.length; offset += 4) {
            const pixel = offset / 4, x = pixel % 1600, y = Math.floor(pixel / 1600);
            image.data[offset] = (x / 7 + ${index * 20} + Math.random() * 200) & 255;
            image.data[offset + 1] = (y / 5 + Math.random() * 200) & 255;
            image.data[offset + 2] = ((x ^ y) / 9 + Math.random() * 200) & 255;
            image.data[offset + 3] = 255;
          }
          context.putImageData(image, 0, 0);
        </script></body>`,
      );
      photos.push(await page.screenshot({ type: 'jpeg', quality: 85 }));
    }
    return photos;
  } finally {
    await browser.close();
  }
}

/**
 * The journal of a visit of 20 gateways, 400 entries: per gateway a verified cellular change (steps and end), a
 * firewall change rolled back, reads and changes as commands sent and answered; then 10 photos attached.
 */
async function twentyGatewayJournal(visits: Visits, photos: Buffer[]): Promise<void> {
  const gateways = Array.from({ length: 20 }, (_, index) => ({
    gatewayId: `gw-${index}`,
    name: `acme-gw-${String(index).padStart(4, '0')}`,
    mac: `00800000000000${index.toString(16).padStart(2, '0')}`,
  }));
  for (const [index, gateway] of gateways.entries()) {
    const cellular = `cellular-${index}`;
    const firewall = `firewall-${index}`;
    const entries: VisitEntry[] = [
      { kind: 'wizard-step', runId: cellular, wizard: 'cellular', gateway, step: 'apply' },
      {
        kind: 'wizard-outcome',
        runId: cellular,
        wizard: 'cellular',
        gateway,
        outcome: 'changed',
        before: { 'apn[0].name': 'internet' },
        after: { 'apn[0].name': 'iot.example' },
        response: { outcome: 'applied', checks: [{ name: 'Data call', ok: true, detail: 'connected' }] },
      },
      {
        kind: 'wizard-outcome',
        runId: firewall,
        wizard: 'firewall',
        gateway,
        outcome: 'rolled-back',
        before: { 'ssh.enabled': true },
        after: { 'ssh.enabled': false },
        reason: 'Verification failed: SSH still answers.',
      },
      ...Array.from({ length: 17 }, (_, command): VisitEntry[] => {
        const commandId = `${gateway.gatewayId}-${command}`;
        const isChange = command % 4 === 3;
        return command % 2 === 0
          ? [
              {
                kind: 'command-sent',
                commandId,
                gateway,
                command: isChange ? 'updateWmApn' : 'getWmApns',
                risk: isChange ? 'change' : 'read',
                ...(isChange ? { request: { name: `apn-${command}`, idxModem: 1 } } : {}),
              },
            ]
          : [{ kind: 'command-outcome', commandId: `${gateway.gatewayId}-${command - 1}`, outcome: 'ok' }];
      }).flat(),
    ];
    for (const entry of entries) await visits.append(entry);
  }
  for (const [index, bytes] of photos.entries())
    await visits.attachPhoto({ bytes, caption: `Mast ${index}`, gateway: gateways[index * 2] });
}

async function measureExport(folder: string): Promise<BenchFigure[]> {
  const photos = await photoJpegs();
  const visits = new Visits({ dataDir: join(folder, 'export') });
  await visits.load();
  const opened = await visits.open({ site: 'Harbour warehouse roof' });
  await twentyGatewayJournal(visits, photos);
  const printer = new ChromiumPdfPrinter();
  // What an export does after bundling: the journal's lines and photos read, the visit folded, the report written.
  const exportFromJournal = async () => {
    const lines = visits.entries(opened.id);
    const visit = visitFromJournal(lines, {
      technician: 'tech@acme.demo',
      profileId: 'demo',
      photos: await readJournalPhotos(lines, visits.pathsOf(opened.id).folder),
      now: Date.now(),
    });
    return {
      entries: lines.length,
      written: await exportSiteReport(visit, join(folder, 'exports'), { printer, timeZone: 'UTC' }),
    };
  };
  // One export first, untimed: under tsx it compiles the report's components (the app's bundle has them built).
  await exportFromJournal();
  const durations: number[] = [];
  let pdfBytes = 0;
  let entries = 0;
  for (let run = 0; run < EXPORT_RUNS; run += 1) {
    const started = performance.now();
    const exported = await exportFromJournal();
    durations.push(performance.now() - started);
    if (!exported.written.pdfPath) throw new Error('the bench export wrote no PDF');
    pdfBytes = (await stat(exported.written.pdfPath)).size;
    entries = exported.entries;
  }
  await visits.shutdown();
  return [
    {
      name: 'visit-export-pdf-20gw-ms',
      value: percentile(durations, 0.5),
      unit: 'ms',
      target: '<= 3000',
      note: `20 gateways, ${entries} journal entries, 10 photos (1600×1200 JPEG, ${Math.round(photos.reduce((sum, photo) => sum + photo.length, 0) / 10 / 1024)} kB each); PDF of ${Math.round(pdfBytes / 1024)} kB; median of ${EXPORT_RUNS}, all: ${durations.map((value) => value.toFixed(0)).join(', ')} ms`,
    },
  ];
}

/** Runs the visit suite in a temporary folder on the same disk as the data folder's default (the OS temp folder). */
export async function runVisitBench(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'fieldkit-bench-visit-'));
  try {
    return [
      ...(await measureRawFlushes(folder)),
      ...(await measureAppends(folder)),
      ...(await measureVerify(folder)),
      ...(await measureExport(folder)),
    ];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
