// The visit journal, two figures:
// * `visit-append-p99-ms`: 10,000 entries appended to an open visit, each written and flushed (fdatasync) before
//   the next; the 99th percentile of one append, from the call to its line being on the disk.
// * `visit-raw-fdatasync-p99-ms`: the same number of bare 300-byte `write` + `fdatasync` calls on the same disk just
//   before: what the disk's flush costs without the journal (hashing, checking, serialising).
// * `visit-verify-20gw-ms`: checking an exported bundle offline (verifyBundle, what `npm run verify-report` runs):
//   a visit of 20 gateways, 400 entries, 10 photos of 300 kB and 20 session logs of 100 kB, with its HTML report;
//   the median of 5 checks.
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSiteReport } from '../../electron/services/reports';
import { gatherVisitEvidence, verifyBundle, Visits, writeVisitBundle } from '../../electron/services/visit';
import { makeSiteVisit, makeVisitEntry } from '../helpers/factories';
import type { BenchFigure } from './report';

const APPENDS = 10_000;
const VERIFY_RUNS = 5;

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
    { ...makeSiteVisit([], { site: 'Harbour warehouse roof' }), journal: evidence.journal },
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

/** Runs the visit suite in a temporary folder on the same disk as the data folder's default (the OS temp folder). */
export async function runVisitBench(): Promise<BenchFigure[]> {
  const folder = await mkdtemp(join(tmpdir(), 'fieldkit-bench-visit-'));
  try {
    return [
      ...(await measureRawFlushes(folder)),
      ...(await measureAppends(folder)),
      ...(await measureVerify(folder)),
    ];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
