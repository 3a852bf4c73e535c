import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../electron/services/audit';
import { GatewayTasks } from '../../../electron/services/commissioning';
import { buildSiteReportHtml, visitFromJournal } from '../../../electron/services/reports';
import type { Session } from '../../../electron/services/session';
import type { RunningSimulator } from '../../../simulator';
import { expectOneTimeFormat } from '../../helpers/report-times';
import { openTestVisit } from '../../helpers/visit-journal';
import { healthyGateway, PROVIDER, startSimulatorSession } from '../commissioning/simulator-session';

// An upgrade on the simulator restarts the gateway: the app reads the install status until it answers again,
// and some of those reads go unanswered while it is away. The report is read from the visit journal on disk.

describe('the report of a software upgrade that restarts the gateway', () => {
  let simulator: RunningSimulator;
  let session: Session;
  let folder: string;

  beforeAll(async () => {
    ({ simulator, session } = await startSimulatorSession({
      commandTimeoutMs: 300,
      rebootMs: 1_500,
      upgradeMs: 1_000,
    }));
    folder = await mkdtemp(join(tmpdir(), 'followed-restart-'));
  });
  afterAll(async () => {
    await simulator.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('tells the status reads through the upgrade and shows none that went unanswered as failed', async () => {
    const audit = new AuditLog({ dataDir: folder });
    const visit = await openTestVisit({ site: 'Water tower' });
    const gateway = healthyGateway(simulator, 3);
    const tasks = new GatewayTasks(gateway.id, {
      commander: session,
      profileId: 'demo',
      user: PROVIDER.username,
      audit,
      journal: visit.journal,
      commandTimeoutMs: 5_000,
      gatewayReturnTimeoutMs: 15_000,
      waitInitialDelayMs: 100,
      waitMaxDelayMs: 400,
      pollIntervalMs: 250,
    });
    expect((await tasks.upgrade()).outcome).toBe('ok');
    const entries = await audit.read({ profileId: 'demo' });
    const polls = entries.filter((entry) => entry.name === 'getLastInstallUpgradeStatus');
    // The scene the report must tell well: status reads made by the app, some unanswered during the restart.
    expect(polls.length).toBeGreaterThan(2);
    expect(polls.every((entry) => entry.automatic === true)).toBe(true);
    expect(polls.some((entry) => entry.outcome === 'failed')).toBe(true);

    const html = await buildSiteReportHtml(
      visitFromJournal(visit.lines(), { technician: PROVIDER.username, profileId: 'demo', now: Date.now() }),
    );
    await visit.remove();
    expect(html).toMatch(
      new RegExp(
        `Followed the restart: ${polls.length} reads \\(Read the last install or upgrade outcome\\), ` +
          `${polls.filter((entry) => entry.outcome !== 'ok').length} unanswered while it restarted; ` +
          'the gateway answered again at \\d\\d:\\d\\d\\.',
      ),
    );
    expect(html).not.toContain('<code>getLastInstallUpgradeStatus</code>');
    expect(html).not.toContain('class="failed"');
    // The upgrade's own command is told by its change line, not listed again under the commands run.
    expect(html).not.toContain('<code>upgradeSoftware</code>');
    expectOneTimeFormat(html);
  }, 60_000);
});
