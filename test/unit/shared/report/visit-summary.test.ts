import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../electron/services/audit';
import {
  foldCommands,
  listVisitLines,
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
