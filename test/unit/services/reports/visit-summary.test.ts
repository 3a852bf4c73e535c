import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../electron/services/audit';
import { foldCommands, summarizeGateways } from '../../../../electron/services/reports';

const AT = Date.UTC(2026, 0, 15, 10, 2);

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    at: AT,
    profileId: 'demo',
    user: 'tech@example.com',
    gatewayId: 'gw-1',
    kind: 'command',
    name: 'getWmCallStatistics',
    risk: 'read',
    outcome: 'ok',
    durationMs: 40,
    ...overrides,
  };
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
