import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayCommands, isCommandName } from '../../../electron/shared/api';
import { AuditLog } from '../../../electron/services/audit';
import { createWizardRun, firewallWizard } from '../../../electron/services/commissioning';
import { FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { VisitCommandJournal, Visits } from '../../../electron/services/visit';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { healthyGateway, startSimulatorSession } from '../commissioning/simulator-session';

const CHILD = join(import.meta.dirname, '../../helpers/fleet-apply-child.ts');
/** Changes the simulator carries out before the apply is killed (the fleet works on 16 gateways at once). */
const CHANGES_BEFORE_KILL = 8;

let dataDir: string;
let simulator: RunningSimulator | undefined;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-command-journal-'));
});

afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** Opens a visit in the data folder as the technician would, then lets go of it (another process records). */
async function openVisit(notes = 0, noteLength = 0): Promise<string> {
  const visits = new Visits({ dataDir });
  const visit = await visits.open({ site: 'Harbour warehouse roof' });
  for (let index = 0; index < notes; index += 1)
    await visits.append({ kind: 'note', text: `${index} ${'x'.repeat(noteLength)}` });
  await visits.shutdown();
  return visit.id;
}

/** The entries of a visit as a fresh start reads them. */
async function journalOf(visitId: string): Promise<VisitEntry[]> {
  const visits = new Visits({ dataDir });
  await visits.load();
  const entries = visits.entries(visitId).map((line) => line.entry as VisitEntry);
  await visits.shutdown();
  return entries;
}

/** A simulator that notes every gateway a change reached, and holds each change's answer while `holds` says. */
async function startNotingSimulator(
  gateways: number,
  onChange: (changed: Set<string>) => void = () => undefined,
) {
  const changed = new Set<string>();
  simulator = await startSimulator({
    gateways,
    offlineFraction: 0,
    beforeCommandAnswer: ({ gatewayId, command, signal }) => {
      if (!isCommandName(command) || gatewayCommands[command].risk === 'read') return;
      changed.add(gatewayId);
      onChange(changed);
      return new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    },
  });
  return { simulator, changed, ids: simulator.fixture.gateways.map((gateway) => gateway.id) };
}

/** Runs the fleet apply child (with the visit journal) under `bash -c`, so a test can set a limit first. */
function startApply(url: string, ids: string[], limit = '') {
  const child = spawn(
    'bash',
    [
      '-c',
      `${limit}exec "${process.execPath}" --import tsx "$0" "$1" "$2" "$3" journal`,
      CHILD,
      url,
      dataDir,
      JSON.stringify(ids),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );
  return { child, exited, output: () => output };
}

describe('the command path records into the visit journal', () => {
  it('has a command-sent entry for every gateway changed when the app is killed mid-apply', async () => {
    const visitId = await openVisit();
    let onEnough: () => void = () => undefined;
    const enough = new Promise<void>((resolve) => (onEnough = resolve));
    const {
      changed,
      ids,
      simulator: running,
    } = await startNotingSimulator(40, (seen) => {
      if (seen.size >= CHANGES_BEFORE_KILL) onEnough();
    });
    const apply = startApply(running.url, ids);
    await Promise.race([
      enough,
      apply.exited.then(() => Promise.reject(new Error(`the apply ended first: ${apply.output()}`))),
    ]);
    apply.child.kill('SIGKILL');
    expect(await apply.exited).toBe('SIGKILL');

    const entries = await journalOf(visitId);
    const sentTo = new Set(
      entries.flatMap((entry) => (entry.kind === 'command-sent' ? [entry.gateway.gatewayId] : [])),
    );
    expect(changed.size).toBeGreaterThanOrEqual(CHANGES_BEFORE_KILL);
    for (const gatewayId of changed) expect(sentTo).toContain(gatewayId);
  });

  it('sends nothing when the visit journal cannot be written, and says so', async () => {
    // A journal already past the 64 KiB file-size limit: its next append fails with EFBIG, as on a full disk.
    const visitId = await openVisit(40, 2_000);
    const { changed, ids, simulator: running } = await startNotingSimulator(4);
    const apply = startApply(running.url, ids, 'ulimit -f 64 && ');
    expect(await apply.exited).toBeNull();

    expect(changed.size).toBe(0);
    expect(apply.output()).toContain('Nothing was sent: the visit journal could not be written');
    expect((await journalOf(visitId)).filter((entry) => entry.kind === 'command-sent')).toEqual([]);
    // The audit log has each gateway's row failed, and no change that reads as sent (unknown) at the next start.
    const audited = await new AuditLog({ dataDir }).read({ profileId: 'demo' });
    expect(audited.map((entry) => entry.outcome)).toEqual(ids.map(() => 'failed'));
  });

  it('records a wizard run as it goes: its steps, its commands and its outcome with before → after', async () => {
    const started = await startSimulatorSession({ gateways: 10 });
    simulator = started.simulator;
    const visitId = await openVisit();
    const visits = new Visits({ dataDir });
    await visits.load();
    const gateway = healthyGateway(started.simulator, 0);
    const run = createWizardRun(firewallWizard, gateway.id, {
      commander: started.session,
      profileId: 'demo',
      user: 'provider@fieldkit.demo',
      journal: new VisitCommandJournal(visits),
      gatewayName: gateway.name,
      verifyTimeoutMs: 8_000,
      pollIntervalMs: 250,
    });
    const state = await run.read();
    const before = state.doSPrevention.burstLimit;
    const result = await run.apply({ ...state, doSPrevention: { ...state.doSPrevention, burstLimit: 42 } });
    expect(result.outcome).toBe('applied');
    await visits.shutdown();

    const entries = await journalOf(visitId);
    const steps = entries.flatMap((entry) => (entry.kind === 'wizard-step' ? [entry.step] : []));
    expect(steps).toEqual(expect.arrayContaining(['read', 'backing-up', 'applying', 'verifying']));
    const sent = entries.filter((entry) => entry.kind === 'command-sent' && entry.risk !== 'read');
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]).toMatchObject({ gateway: { gatewayId: gateway.id, name: gateway.name } });
    expect(entries.at(-1)).toMatchObject({
      kind: 'wizard-outcome',
      runId: run.runId,
      wizard: 'firewall',
      gateway: { gatewayId: gateway.id, name: gateway.name },
      outcome: 'changed',
      before: { 'doSPrevention.burstLimit': before },
      after: { 'doSPrevention.burstLimit': 42 },
    });
  });
});

/** Field Kit as main or the host starts it on the data folder, in field mode. */
function startApp(): Promise<FieldKitServices> {
  return FieldKitServices.create({
    dataDir,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => {
      throw new Error('field mode must not build a session');
    },
  });
}

describe('a change left unknown at start-up', () => {
  it('goes into the open visit as unknown — re-read the gateway — once', async () => {
    const visitId = await openVisit();
    const visits = new Visits({ dataDir });
    await visits.load();
    const audit = new AuditLog({ dataDir });
    // What a process killed between sending and the answer leaves: a change sent, in both records, no outcome.
    const journal = new VisitCommandJournal(visits);
    const sent = {
      profileId: 'demo',
      user: 'tech@example.com',
      kind: 'command',
      name: 'setPreferredPingIpAddress',
      risk: 'change',
      gatewayId: 'gw-7',
      request: { ipAddr: '9.9.9.9' },
      outcome: 'sent',
      durationMs: 0,
      sendId: 'send-7',
    } as const;
    await audit.append(sent);
    await journal.append(sent);
    await visits.shutdown();

    // Field Kit started twice: the first start records it, the second adds nothing.
    for (let start = 0; start < 2; start += 1) await (await startApp()).close();

    const outcomes = (await journalOf(visitId)).filter((entry) => entry.kind === 'command-outcome');
    expect(outcomes).toEqual([
      expect.objectContaining({
        commandId: 'send-7',
        outcome: 'unknown',
        error: expect.stringContaining('re-read the gateway') as unknown,
      }),
    ]);
  });

  it('writes nothing when no visit is open', async () => {
    await new AuditLog({ dataDir }).append({
      profileId: 'demo',
      user: 'tech',
      kind: 'command',
      name: 'reboot',
      outcome: 'sent',
      durationMs: 0,
      sendId: 'send-1',
    });
    const services = await startApp();
    expect(services.visits.list()).toEqual([]);
    await services.close();
  });
});
