import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../electron/services/audit';
import { listVisitLines, matchGateway } from '../../../../electron/shared/report/visit-lines';
import {
  describeFollowed,
  foldCommands,
  listChanges,
  summarizeGateways,
} from '../../../../electron/shared/report/visit-summary';
import { FACTORY_TIME, makeAuditEntry } from '../../../helpers/factories';

const AT = FACTORY_TIME;

/** An audit entry; by default a read of the data call status, the poll a visit repeats most. */
function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return makeAuditEntry({ name: 'getWmCallStatistics', risk: 'read', ...overrides });
}

function wizardResult(name: string, outcome: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  const isOk = outcome === 'applied' || outcome === 'unchanged';
  return entry({
    kind: 'wizard',
    name,
    risk: undefined,
    outcome: isOk ? 'ok' : 'failed',
    before: { field: 'old' },
    after: { field: 'new' },
    response: { outcome, checks: [] },
    ...overrides,
  });
}

describe('foldCommands', () => {
  it('folds 48 polls of one read into one line with its first and last time', () => {
    const polls = Array.from({ length: 48 }, (_, index) => entry({ at: AT + index * 2_000 }));
    expect(foldCommands(polls)).toEqual([
      expect.objectContaining({ name: 'getWmCallStatistics', count: 48, firstAt: AT, lastAt: AT + 94_000 }),
    ]);
  });

  it('folds interleaved reads of two commands into one line each, in the order they first ran', () => {
    const polls = Array.from({ length: 6 }, (_, index) =>
      entry({
        at: AT + index * 1_000,
        name: index % 2 === 0 ? 'getWmCallStatistics' : 'getWmActiveProfileParameters',
      }),
    );
    expect(foldCommands(polls).map((line) => [line.name, line.count])).toEqual([
      ['getWmCallStatistics', 3],
      ['getWmActiveProfileParameters', 3],
    ]);
  });

  it('keeps failed reads apart from the ones that answered, with the last error', () => {
    const lines = foldCommands([
      entry({}),
      entry({ at: AT + 1, outcome: 'failed', error: 'timed out' }),
      entry({ at: AT + 2, outcome: 'failed', error: 'timed out again' }),
      entry({ at: AT + 3 }),
    ]);
    expect(lines.map((line) => [line.outcome, line.count, line.error])).toEqual([
      ['ok', 2, undefined],
      ['failed', 2, 'timed out again'],
    ]);
  });

  it('gives every change its own line, even when repeated', () => {
    const change = { name: 'updateWmApn', risk: 'change' as const };
    expect(foldCommands([entry(change), entry({ ...change, at: AT + 1 })])).toHaveLength(2);
  });

  it('keeps the same read on two gateways apart', () => {
    expect(foldCommands([entry({}), entry({ gatewayId: 'gw-2' })])).toHaveLength(2);
  });
});

describe('summarizeGateways', () => {
  it('says a gateway with only reads was only inspected', () => {
    expect(
      summarizeGateways(['gw-1'], [entry({}), entry({ kind: 'wizard', name: 'cellular:read' })]),
    ).toEqual([{ gatewayId: 'gw-1', outcome: 'inspected', changes: [] }]);
  });

  it('gives each change its outcome and the gateway the worst of them', () => {
    const [summary] = summarizeGateways(
      ['gw-1'],
      [
        wizardResult('connectivity', 'applied'),
        wizardResult('cellular', 'rolled-back', {
          at: AT + 60_000,
          error:
            'Verification failed: no data call. The previous settings were put back and read back unchanged.',
        }),
      ],
    );
    expect(summary!.outcome).toBe('rolled-back');
    expect(summary!.changes.map((change) => [change.what, change.outcome, change.reason])).toEqual([
      ['WAN connectivity', 'verified', undefined],
      ['Cellular modem and APN', 'rolled-back', 'Verification failed: no data call'],
    ]);
  });

  it('says unknown when a change went out and nothing confirmed it', () => {
    const [summary] = summarizeGateways(
      ['gw-1'],
      [
        entry({
          kind: 'fleet',
          name: 'firewall',
          risk: 'disruptive',
          outcome: 'unknown',
          error: 'no answer',
        }),
      ],
    );
    expect(summary!.changes.map((change) => [change.what, change.outcome])).toEqual([
      ['Fleet: firewall', 'unknown'],
    ]);
    expect(summary!.outcome).toBe('unknown');
  });

  it('counts a reboot as work done but a ping as an inspection', () => {
    const summaries = summarizeGateways(
      ['gw-1', 'gw-2'],
      [
        entry({ kind: 'wizard', name: 'reboot', risk: undefined }),
        entry({ kind: 'wizard', name: 'ping', risk: undefined, gatewayId: 'gw-2' }),
      ],
    );
    expect(summaries.map((summary) => [summary.gatewayId, summary.outcome])).toEqual([
      ['gw-1', 'done'],
      ['gw-2', 'inspected'],
    ]);
  });

  it('names a software upgrade in words, with the versions it recorded', () => {
    const [summary] = summarizeGateways(
      ['gw-1'],
      [
        entry({
          kind: 'wizard',
          name: 'upgradeSoftware',
          risk: undefined,
          before: { 'kona-pkt-forwarder': '4.2.1' },
          after: { 'kona-pkt-forwarder': '4.3.0' },
        }),
      ],
    );
    expect(summary!.changes.map((change) => [change.what, change.outcome])).toEqual([
      ['Software upgrade', 'done'],
    ]);
    expect(summary!.changes[0]!.entry.after).toEqual({ 'kona-pkt-forwarder': '4.3.0' });
  });

  it('says a rollback that could not restore the settings failed', () => {
    const [summary] = summarizeGateways(['gw-1'], [wizardResult('firewall', 'rollback-failed')]);
    expect(summary!.outcome).toBe('rollback-failed');
  });
});

describe('listVisitLines', () => {
  it('puts the lines in time order whatever order the log wrote them in', () => {
    // The engine writes a wizard's final entry after its steps, stamped with the time the apply started.
    const lines = listVisitLines([
      entry({ at: AT + 5_000, name: 'getWmApns' }),
      wizardResult('cellular', 'rolled-back', { at: AT + 1_000 }),
      entry({ at: AT, kind: 'wizard', name: 'cellular:read', risk: undefined }),
    ]);
    expect(lines.map((line) => line.at)).toEqual([AT, AT + 1_000, AT + 5_000]);
  });

  it('says each line in the report’s words: the change with its outcome, the read, the command’s title', () => {
    const lines = listVisitLines([
      entry({ at: AT, kind: 'wizard', name: 'cellular:read', risk: undefined }),
      wizardResult('cellular', 'rolled-back', { at: AT + 1_000 }),
      entry({ at: AT + 2_000, name: 'getWmApns' }),
      entry({ at: AT + 3_000, kind: 'fleet', name: 'apn', risk: 'change', before: 'a', after: 'b' }),
    ]);
    expect(lines.map((line) => [line.what, line.outcome])).toEqual([
      ['Settings read: Cellular modem and APN', 'ok'],
      ['Cellular modem and APN', 'rolled back'],
      ['List APNs', 'ok'],
      ['Fleet: APN', 'changed and verified'],
    ]);
    expect(lines[2]!.apiName).toBe('getWmApns');
  });

  it('folds repeated reads as the report does and leaves the wizard’s own steps out', () => {
    const lines = listVisitLines([
      ...Array.from({ length: 19 }, (_, index) => entry({ at: AT + index * 2_000 })),
      entry({ at: AT + 1, kind: 'wizard', name: 'cellular:applying', risk: undefined }),
    ]);
    expect(lines).toEqual([
      expect.objectContaining({ what: 'Read the data call status', count: 19, at: AT, lastAt: AT + 36_000 }),
    ]);
  });
});

/** An upgrade task of run `run-1` from AT for 60 s, and the status reads the app made to follow it. */
function upgradeWithPolls(outcome: 'ok' | 'failed' = 'ok'): AuditEntry[] {
  const poll = (offset: number, pollOutcome: 'ok' | 'failed') =>
    entry({
      at: AT + offset,
      name: 'getLastInstallUpgradeStatus',
      runId: 'run-1',
      automatic: true,
      outcome: pollOutcome,
      ...(pollOutcome === 'failed'
        ? { error: 'The gateway did not answer command getLastInstallUpgradeStatus' }
        : {}),
    });
  return [
    poll(1_000, 'ok'),
    entry({ at: AT + 2_000, name: 'upgradeSoftware', risk: 'disruptive', runId: 'run-1' }),
    ...[5_000, 10_000, 15_000].map((offset) => poll(offset, 'ok')),
    poll(20_000, 'failed'),
    poll(40_000, 'ok'),
    entry({
      at: AT,
      kind: 'wizard',
      name: 'upgradeSoftware',
      risk: undefined,
      runId: 'run-1',
      durationMs: 60_000,
      outcome,
      response: { message: 'Installed every package' },
    }),
  ];
}

describe('reads the app made to follow a task', () => {
  it('are told through the task, not listed as commands, and a read unanswered during the restart is no failure', () => {
    const entries = upgradeWithPolls();
    // The task's own upgradeSoftware command and its polls are told by the change, not listed again.
    expect(foldCommands(entries)).toEqual([]);
    const [change] = listChanges(entries);
    expect(change!.followed).toEqual({
      isRestart: true,
      reads: 6,
      titles: ['Read the last install or upgrade outcome'],
      unanswered: 1,
      answeredAt: AT + 60_000,
    });
    expect(describeFollowed(change!.followed!, (at) => new Date(at).toISOString().slice(11, 16))).toBe(
      'Followed the restart: 6 reads (Read the last install or upgrade outcome), 1 unanswered while it ' +
        'restarted; the gateway answered again at 12:01.',
    );
    const lines = listVisitLines(entries, { formatTime: (at) => new Date(at).toISOString().slice(11, 16) });
    expect(lines.map((line) => line.outcome)).not.toContain('failed');
    expect(lines[0]!.detail).toMatch(/^Followed the restart: 6 reads/);
  });

  it('say no answer time when the task did not end well', () => {
    const [change] = listChanges(upgradeWithPolls('failed'));
    expect(change!.followed!.answeredAt).toBeUndefined();
    expect(describeFollowed(change!.followed!, String)).not.toContain('answered again');
  });

  it('stay commands of their own when no task of their run claims them', () => {
    const orphan = entry({ name: 'getLastInstallUpgradeStatus', runId: 'run-9', automatic: true });
    expect(foldCommands([orphan])).toHaveLength(1);
  });
});

describe('matchGateway', () => {
  const gateways = [
    { id: 'gw-1', name: 'acme-gw-0013', mac: '647FDAFFFE00000C' },
    { id: 'gw-2', name: 'Roof  North' },
  ];

  it('finds the gateway a terminal names by its id, its name (any case, any spacing) or its MAC', () => {
    expect(matchGateway('gw-1', gateways)).toBe('gw-1');
    expect(matchGateway(' ACME-GW-0013 ', gateways)).toBe('gw-1');
    expect(matchGateway('roof north', gateways)).toBe('gw-2');
    expect(matchGateway('64:7f:da:ff:fe:00:00:0c', gateways)).toBe('gw-1');
  });

  it('keeps text that names none of them as typed, and nothing as nothing', () => {
    expect(matchGateway('shed gateway', gateways)).toBe('shed gateway');
    expect(matchGateway(undefined, gateways)).toBeUndefined();
    expect(matchGateway('  ', gateways)).toBeUndefined();
  });
});

describe('listVisitLines with terminals', () => {
  it('lists a terminal session and a serial triage under the gateway they name, in time order', () => {
    const lines = listVisitLines([entry({ at: AT + 5_000, name: 'getWmApns' })], {
      terminalLogs: [{ label: 'acme-gw-0013 · 115200 8N1', gatewayId: 'gw-1', openedAt: AT }],
      triages: [
        {
          title: 'acme-gw-0013 · 115200 8N1',
          gatewayId: 'gw-1',
          finishedAt: AT + 9_000,
          outcome: 'complete',
        },
      ],
    });
    expect(lines.map((line) => [line.gatewayId, line.what, line.outcome])).toEqual([
      ['gw-1', 'Terminal session: acme-gw-0013 · 115200 8N1', 'log kept'],
      ['gw-1', 'List APNs', 'ok'],
      ['gw-1', 'Serial triage: acme-gw-0013 · 115200 8N1', 'collected'],
    ]);
  });
});
