import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../electron/services/audit';
import { createWizardRun, firewallWizard } from '../../../electron/services/commissioning';
import { ChromiumPdfPrinter } from '../../../electron/host/chromium-pdf-printer';
import { exportSiteReport, visitFromJournal } from '../../../electron/services/reports';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { healthyGateway, PROVIDER, startSimulatorSession } from '../commissioning/simulator-session';
import { openTestVisit } from '../../helpers/visit-journal';

const run = promisify(execFile);

describe('a visit from its journal to a PDF', () => {
  let simulator: RunningSimulator;
  let session: Session;
  let folder: string;

  beforeAll(async () => {
    ({ simulator, session } = await startSimulatorSession({ commandTimeoutMs: 300 }));
    folder = await mkdtemp(join(tmpdir(), 'visit-report-'));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('reports the firewall change made through a wizard, read from the visit journal, in the PDF text', async () => {
    const audit = new AuditLog({ dataDir: folder });
    const visit = await openTestVisit({ site: 'Harbour warehouse roof' });
    const gateway = healthyGateway(simulator);
    const wizard = createWizardRun(firewallWizard, gateway.id, {
      commander: session,
      profileId: 'demo',
      user: PROVIDER.username,
      audit,
      journal: visit.journal,
    });
    const state = await wizard.read();
    const result = await wizard.apply({
      ...state,
      doSPrevention: { ...state.doSPrevention, perMinLimit: 61 },
    });
    expect(result.outcome).toBe('applied');
    const lines = visit.lines();
    await visit.remove();
    const report = visitFromJournal(lines, {
      technician: PROVIDER.username,
      profileId: 'demo',
      now: Date.now(),
    });
    const { pdfPath } = await exportSiteReport(report, join(folder, 'reports'), {
      printer: new ChromiumPdfPrinter(),
      knownSecrets: [PROVIDER.password, session.accessToken!],
    });
    const { stdout } = await run('pdftotext', [pdfPath!, '-']);
    const text = stdout.replace(/\s+/g, ' ');
    expect(text).toContain('DoS limit per minute 25 → 61 changed and verified');
    expect(text).toContain('setFirewallConfiguration');
    expect(text).not.toContain(PROVIDER.password);
    expect(await readFile(audit.pathOf('demo'), 'utf8')).not.toContain(session.accessToken!);
  });
});
