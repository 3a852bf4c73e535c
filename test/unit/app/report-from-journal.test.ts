import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FieldKitServices } from '../../../electron/app';
import { renderReportHtml } from '../../../electron/services/reports';
import { verifyBundle } from '../../../electron/services/visit';
import type { ReportModel } from '../../../electron/shared/report/report-model';
import { FACTORY_TIME } from '../../helpers/factories';
import { startFieldModeApp, type RouterAnswer } from '../../helpers/field-mode-app';
import { ManualClock } from '../../helpers/manual-clock';

// The report channels as the report view calls them, in field mode: each report is one visit's journal rendered,
// whatever else the laptop keeps (the audit log) and whatever the page holds.

let folder: string;
const running: FieldKitServices[] = [];

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-report-journal-'));
});

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  await rm(folder, { recursive: true, force: true });
});

async function startApp() {
  const clock = new ManualClock(FACTORY_TIME);
  const app = await startFieldModeApp({
    dataDir: folder,
    commissioning: { reportsDir: join(folder, 'reports') },
    clock,
  });
  running.push(app.services);
  return { ...app, clock };
}

/** The HTML an export wrote and where its bundle is. */
async function exported(answer: RouterAnswer) {
  expect(answer.ok).toBe(true);
  const value = answer.value as { htmlPath: string; bundlePath: string };
  return { html: await readFile(value.htmlPath, 'utf8'), bundlePath: value.bundlePath };
}

describe('the site report channels', () => {
  it('refuses a report when no visit is open, saying to start one', async () => {
    const { invoke } = await startApp();
    for (const channel of ['report:preview', 'report:export'])
      expect(await invoke(channel, channel === 'report:export' ? { format: 'html' } : {})).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message:
            'Start a visit first: a site report tells the work recorded in a visit, and no visit is open.',
        },
      });
  });

  it('leaves out work the audit log holds and the visit journal does not', async () => {
    const { invoke, services } = await startApp();
    const profile = await services.profiles.save({
      name: 'Roof site',
      baseUrl: 'https://oam.lab.example',
      username: 'tech@acme.demo',
    });
    await services.profiles.select(profile.id);
    await invoke('visit:open', { site: 'Roof A', arrivedAt: FACTORY_TIME });
    await services.audit.append({
      profileId: profile.id,
      user: 'tech@acme.demo',
      gatewayId: 'gw-audit-only',
      kind: 'command',
      name: 'rebootGateway',
      risk: 'disruptive',
      outcome: 'ok',
      durationMs: 5,
    });
    const { html } = await exported(await invoke('report:export', { format: 'html' }));
    expect(html).toContain('Roof A');
    expect(html).not.toContain('gw-audit-only');
    expect(html).not.toContain('rebootGateway');
  });

  it('previews the very report an export writes, with the head of the journal it bundled', async () => {
    const { invoke, services } = await startApp();
    await invoke('visit:open', { site: 'Harbour warehouse roof', arrivedAt: FACTORY_TIME });
    await services.visits.append({
      kind: 'command-sent',
      commandId: 'c-1',
      gateway: { gatewayId: 'gw-1', name: 'Kona Macro 7' },
      command: 'getGatewayInfo',
    });
    await services.visits.append({ kind: 'command-outcome', commandId: 'c-1', outcome: 'ok' });
    await invoke('visit:note', { text: 'Mast re-tightened' });
    const { html, bundlePath } = await exported(await invoke('report:export', { format: 'html' }));
    const preview = await invoke('report:preview', {});
    expect(preview.ok).toBe(true);
    expect(await renderReportHtml(preview.value as ReportModel)).toBe(html);
    const verdict = await verifyBundle(bundlePath);
    expect(verdict).toMatchObject({ isIntact: true });
    expect((preview.value as ReportModel).evidence?.head).toBe(verdict.head);
  });

  it('reports a closed visit chosen by its id, not the open one', async () => {
    const { invoke, clock } = await startApp();
    const first = await invoke('visit:open', { site: 'North mast', arrivedAt: FACTORY_TIME });
    await invoke('visit:note', { text: 'Replaced the surge arrester' });
    clock.time += 60_000;
    await invoke('visit:close', { departedAt: clock.time });
    await invoke('visit:open', { site: 'South mast' });
    const visitId = (first.value as { id: string }).id;
    const { html, bundlePath } = await exported(await invoke('report:export', { visitId, format: 'html' }));
    expect(html).toContain('North mast');
    expect(html).toContain('Replaced the surge arrester');
    expect(html).not.toContain('South mast');
    expect(await verifyBundle(bundlePath)).toMatchObject({ isIntact: true });
  });

  it('offers the gateways the journal names, and reports only those ticked', async () => {
    const { invoke, services } = await startApp();
    await invoke('visit:open', { site: 'Yard' });
    for (const [commandId, gatewayId, name] of [
      ['c-1', 'gw-1', 'Kona Macro 7'],
      ['c-2', 'gw-2', 'Kona Micro 2'],
    ] as const)
      await services.visits.append({
        kind: 'command-sent',
        commandId,
        gateway: { gatewayId, name },
        command: 'getGatewayInfo',
      });
    expect(await invoke('report:gateways', {})).toEqual({
      ok: true,
      value: {
        gateways: [
          { id: 'gw-1', name: 'Kona Macro 7' },
          { id: 'gw-2', name: 'Kona Micro 2' },
        ],
      },
    });
    const preview = await invoke('report:preview', { gateways: ['gw-2'] });
    expect((preview.value as ReportModel).sections.map((section) => section.name)).toEqual(['Kona Micro 2']);
  });

  it('lists what the report will hold from the journal only, not from the audit log', async () => {
    const { invoke, services, clock } = await startApp();
    await invoke('visit:open', { site: 'Roof A', arrivedAt: FACTORY_TIME });
    await services.audit.append({
      profileId: 'none',
      user: 'tech@acme.demo',
      gatewayId: 'gw-audit-only',
      kind: 'command',
      name: 'rebootGateway',
      risk: 'disruptive',
      outcome: 'ok',
      durationMs: 5,
    });
    await services.visits.append({
      kind: 'command-sent',
      commandId: 'c-1',
      gateway: { gatewayId: 'gw-1', name: 'Kona Macro 7' },
      command: 'getGatewayInfo',
      risk: 'read',
    });
    await services.visits.append({ kind: 'command-outcome', commandId: 'c-1', outcome: 'ok' });
    clock.time += 60_000;
    await services.visits.append({
      kind: 'terminal-opened',
      sessionId: 's-1',
      transport: 'serial',
      title: 'Serial /dev/ttyUSB0',
      gateway: { gatewayId: 'gw-2', name: 'Kona Micro 2' },
      logFile: join(folder, 'serial.log'),
    });
    const answer = await invoke('report:lines', { language: 'en' });
    expect(answer.ok).toBe(true);
    const { lines } = answer.value as { lines: Array<{ what: string; gatewayId?: string; at: number }> };
    expect(lines.map((line) => [line.gatewayId, line.what])).toEqual([
      ['gw-1', 'Read interfaces and modem identity'],
      ['gw-2', 'Terminal session: Serial /dev/ttyUSB0'],
    ]);
    expect(lines[1]?.at).toBe(clock.time);
    // Ticking one gateway lists its work only, as the report then holds.
    const ticked = await invoke('report:lines', { gateways: ['gw-2'] });
    expect(
      (ticked.value as { lines: Array<{ gatewayId?: string }> }).lines.map((line) => line.gatewayId),
    ).toEqual(['gw-2']);
  });
});
