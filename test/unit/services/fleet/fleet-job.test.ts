import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../../electron/services/api';
import { MemoryAuditSink } from '../../../../electron/services/audit';
import type { GatewayCommander } from '../../../../electron/services/commissioning';
import { ConfirmationRequiredError } from '../../../../electron/services/commands';
import {
  FleetJob,
  GROUP_PAGE_SIZE,
  listGroupTargets,
  type FleetChange,
  type FleetJobOptions,
  type FleetTarget,
  type GatewayGroupLister,
} from '../../../../electron/services/fleet';
import { interceptCommands } from '../../../helpers/commander';
import { makeGateway } from '../../../helpers/factories';
import { confirmedFor } from '../../../helpers/fleet-confirmation';
import { createSimulatedFleet, type SimulatedFleet } from '../../../helpers/simulated-gateway';

/** The ping target each gateway of the fleet has now, by gateway id. */
function pingTargetsOf(fleet: SimulatedFleet): Map<string, string> {
  return new Map(fleet.gateways.map((gateway) => [gateway.id, gateway.state.configuration.preferredPingIp]));
}

/** Makes every command to `gatewayId` fail with `error` on its way (the server or the network, not the gateway). */
function failOnTheWay(fleet: SimulatedFleet, gatewayId: string, error: () => unknown): void {
  interceptCommands(fleet.commander, (call) => {
    if (call.gatewayId === gatewayId) throw error();
  });
}

const targets = (count: number): FleetTarget[] =>
  Array.from({ length: count }, (_, index) => ({ gatewayId: `gw-${index}`, name: `Gateway ${index}` }));

function jobOptions(commander: GatewayCommander, overrides: Partial<FleetJobOptions> = {}): FleetJobOptions {
  return {
    commander,
    profileId: 'demo',
    user: 'tech@example.com',
    retryDelayMs: 1,
    retryMaxDelayMs: 2,
    random: () => 0.5,
    ...overrides,
  };
}

const change = { kind: 'pingTarget', ipAddr: '1.1.1.1' } as const;

/** A job the technician confirmed for exactly its gateways. */
function confirmedJob(fleetChange: FleetChange, list: FleetTarget[], options: FleetJobOptions): FleetJob {
  return new FleetJob(fleetChange, list, { confirmation: confirmedFor(fleetChange, list), ...options });
}

describe('FleetJob', () => {
  it('changes every gateway and reads each back', async () => {
    const fleet = createSimulatedFleet(40);
    const result = await confirmedJob(change, targets(40), jobOptions(fleet.commander)).run();
    expect(result.counts.done).toBe(40);
    expect([...pingTargetsOf(fleet).values()].every((value) => value === '1.1.1.1')).toBe(true);
    expect(result.commandsSent).toBe(120);
  });

  it('never works on more gateways at once than the concurrency allows', async () => {
    const fleet = createSimulatedFleet(50);
    await confirmedJob(change, targets(50), jobOptions(fleet.commander, { concurrency: 4 })).run();
    expect(fleet.mostInFlight()).toBe(4);
  });

  it('retries transient failures and reports success', async () => {
    const fleet = createSimulatedFleet(3);
    const failures = [
      new ApiError(503, 2, 'Simulated server failure', 'x'),
      new NetworkError('x', 'socket hang up'),
    ];
    interceptCommands(fleet.commander, ({ gatewayId }) => {
      const failure = gatewayId === 'gw-1' ? failures.shift() : undefined;
      if (failure) throw failure;
    });
    const result = await confirmedJob(change, targets(3), jobOptions(fleet.commander)).run();
    expect(result.rows[1]).toMatchObject({ status: 'done', attempts: 3 });
  });

  it('reports a refusal as failed with the reason in words, without retrying', async () => {
    const fleet = createSimulatedFleet(3);
    failOnTheWay(fleet, 'gw-2', () => new ApiError(403, 20, 'You do not have permission', 'x'));
    const result = await confirmedJob(change, targets(3), jobOptions(fleet.commander)).run();
    expect(result.rows[2]).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason: 'Not allowed: You do not have permission (1 attempt)',
    });
  });

  it('reports a gateway that keeps failing after retries as failed, counting the attempts', async () => {
    const fleet = createSimulatedFleet(2);
    failOnTheWay(fleet, 'gw-0', () => new ApiError(503, 2, 'Simulated server failure', 'x'));
    const result = await confirmedJob(
      change,
      targets(2),
      jobOptions(fleet.commander, { maxAttempts: 3 }),
    ).run();
    expect(result.rows[0]).toMatchObject({ status: 'failed', attempts: 3 });
    expect(result.rows[0]?.reason).toMatch(/The server failed \(503\).*\(3 attempts\)/);
  });

  it('skips a gateway that does not answer before any change was sent as offline', async () => {
    const fleet = createSimulatedFleet(2);
    fleet.gateway('gw-0').faults.unansweredCommands = Infinity;
    const result = await confirmedJob(change, targets(2), jobOptions(fleet.commander)).run();
    expect(result.rows[0]).toMatchObject({ status: 'skipped', attempts: 2 });
    expect(result.rows[0]?.reason).toBe(
      'Offline: the gateway did not answer (2 attempts); no change was sent to it',
    );
  });

  it('skips gateways the list says are offline without sending anything', async () => {
    const fleet = createSimulatedFleet(2);
    const result = await confirmedJob(
      change,
      [
        { gatewayId: 'gw-0', status: 'OFFLINE' },
        { gatewayId: 'gw-1', status: 'ONLINE' },
      ],
      jobOptions(fleet.commander),
    ).run();
    expect(result.rows.map((row) => row.status)).toEqual(['skipped', 'done']);
    expect(result.commandsSent).toBe(3);
  });

  it('reports a gateway whose read-back differs from what was set as not applied', async () => {
    const fleet = createSimulatedFleet(1);
    fleet.gateway('gw-0').faults.ignoredChanges.add('setPreferredPingIpAddress');
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander)).run();
    expect(result.rows[0]).toMatchObject({
      status: 'failed',
      reason:
        'not applied (reading back shows the previous value): The ping target reads 8.8.8.8 (1 attempt)',
    });
  });

  it('marks gateways not yet started as cancelled and keeps every gateway in the table', async () => {
    const controller = new AbortController();
    let started = 0;
    const fleet = createSimulatedFleet(30);
    interceptCommands(fleet.commander, ({ name }) => {
      if (name === 'getPreferredPingIpAddress' && ++started === 5) controller.abort();
    });
    const result = await confirmedJob(
      change,
      targets(30),
      jobOptions(fleet.commander, { concurrency: 2, signal: controller.signal }),
    ).run();
    expect(result.rows).toHaveLength(30);
    expect(result.counts.cancelled).toBeGreaterThan(20);
    expect(result.rows.at(-1)?.reason).toMatch(/nothing was sent/);
  });

  it('has exactly one row per input gateway, merging duplicates, in input order', async () => {
    const fleet = createSimulatedFleet(3);
    const input = [...targets(3), { gatewayId: 'gw-1' }];
    const result = await confirmedJob(change, input, jobOptions(fleet.commander)).run();
    expect(result.rows.map((row) => row.gatewayId)).toEqual(['gw-0', 'gw-1', 'gw-2']);
  });

  it('re-runs only the failed gateways', async () => {
    const fleet = createSimulatedFleet(4);
    const { refusedCommands } = fleet.gateway('gw-1').faults;
    refusedCommands.add('setPreferredPingIpAddress');
    const first = confirmedJob(change, targets(4), jobOptions(fleet.commander));
    await first.run();
    refusedCommands.clear();
    const again = first.retryFailed({ confirmation: { gatewayCount: 1 } });
    const result = await again.run();
    expect(result.rows.map((row) => [row.gatewayId, row.status])).toEqual([['gw-1', 'done']]);
    expect(again.jobId).not.toBe(first.jobId);
  });

  it('refuses an invalid change for every gateway before sending anything', async () => {
    const fleet = createSimulatedFleet(2);
    const result = await confirmedJob(
      { kind: 'pingTarget', ipAddr: 'nowhere' },
      targets(2),
      jobOptions(fleet.commander),
    ).run();
    expect(result.counts.failed).toBe(2);
    expect(result.rows[0]?.reason).toBe('The change is not valid: nowhere is not an IP address');
    expect(result.commandsSent).toBe(0);
  });

  it('writes one fleet audit entry per gateway with its outcome', async () => {
    const audit = new MemoryAuditSink();
    const fleet = createSimulatedFleet(2);
    fleet.gateway('gw-1').faults.refusedCommands.add('setPreferredPingIpAddress');
    const job = confirmedJob(change, targets(2), jobOptions(fleet.commander, { audit }));
    await job.run();
    expect(audit.entries.map((entry) => [entry.kind, entry.gatewayId, entry.outcome, entry.runId])).toEqual(
      expect.arrayContaining([
        ['fleet', 'gw-0', 'ok', job.jobId],
        ['fleet', 'gw-1', 'failed', job.jobId],
      ]),
    );
  });

  it('emits a row event with running counts as each gateway changes', async () => {
    const fleet = createSimulatedFleet(2);
    const job = confirmedJob(change, targets(2), jobOptions(fleet.commander));
    const seen: string[] = [];
    job.on('row', ({ row, counts }) => seen.push(`${row.gatewayId}:${row.status}:${counts.done}`));
    await job.run();
    expect(seen).toContain('gw-0:running:0');
    expect(seen.at(-1)).toMatch(/:done:2$/);
  });
});

describe('listGroupTargets', () => {
  it('walks every page of the group and keeps each gateway status', async () => {
    const online = Array.from({ length: GROUP_PAGE_SIZE }, (_, index) =>
      makeGateway(index, { status: 'ONLINE' }),
    );
    const pages = [
      { data: online, hasNext: true, totalPages: 2, totalElements: GROUP_PAGE_SIZE + 1 },
      {
        data: [
          makeGateway(GROUP_PAGE_SIZE, {
            id: { id: 'b', entityType: 'GATEWAY' },
            name: 'B',
            status: 'OFFLINE',
          }),
        ],
        hasNext: false,
        totalPages: 2,
        totalElements: GROUP_PAGE_SIZE + 1,
      },
    ];
    const lister: GatewayGroupLister = {
      call: async (_name, request) => {
        const page = pages[request.query?.page ?? 0];
        if (!page) throw new Error(`There is no page ${request.query?.page}.`);
        return page;
      },
    };
    const found = await listGroupTargets(lister, 'group-1');
    expect(found).toHaveLength(GROUP_PAGE_SIZE + 1);
    expect(found[0]).toEqual({ gatewayId: 'gw-0', name: 'Gateway 0', status: 'ONLINE' });
    expect(found.at(-1)).toEqual({ gatewayId: 'b', name: 'B', status: 'OFFLINE' });
  });
});

describe('FleetJob after a lost answer', () => {
  it('reports a gateway changed by an earlier attempt as done, not as already set', async () => {
    const fleet = createSimulatedFleet(1);
    let failedOnce = false;
    const commander = fleet.commander;
    interceptCommands(commander, async ({ name, forward }) => {
      const answer = await forward();
      if (name === 'setPreferredPingIpAddress' && !failedOnce) {
        failedOnce = true;
        throw new ApiError(503, 2, 'Simulated server failure', name);
      }
      return answer;
    });
    const result = await confirmedJob(change, targets(1), jobOptions(commander)).run();
    expect(result.rows[0]).toMatchObject({
      status: 'done',
      attempts: 2,
      reason: 'applied; an answer was lost, and reading back on a retry shows the change',
    });
  });
});

/**
 * One simulated gateway whose change is carried out (or, with `applies: false`, ignored) and whose answer is then
 * lost on the network; afterwards `unreadable` (if given) leaves its reads failing.
 */
function lostAnswerFleet(options: { applies: boolean; unreadable?: (fleet: SimulatedFleet) => void }) {
  const fleet = createSimulatedFleet(1);
  const gateway = fleet.gateway('gw-0');
  if (!options.applies) gateway.faults.ignoredChanges.add('setPreferredPingIpAddress');
  interceptCommands(fleet.commander, async ({ name, forward }) => {
    const answer = await forward();
    if (name === 'setPreferredPingIpAddress') {
      options.unreadable?.(fleet);
      throw new NetworkError('x', 'socket hang up');
    }
    return answer;
  });
  return fleet;
}

describe('FleetJob rows after a change whose answer was lost', () => {
  it('says "unknown", never "failed", when the gateway cannot be read back', async () => {
    const fleet = lostAnswerFleet({
      applies: true,
      unreadable: (written) => (written.gateway('gw-0').faults.unansweredCommands = Infinity),
    });
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander)).run();
    expect(pingTargetsOf(fleet).get('gw-0')).toBe('1.1.1.1');
    expect(result.rows[0]?.status).toBe('unknown');
    expect(result.rows[0]?.reason).toMatch(/^sent; the gateway did not confirm — re-read it/);
    expect(result.message).toContain('1 unknown (sent, not confirmed: re-read)');
    expect(result.message).toMatch(/^[A-Z].* on 1 gateway: /);
  });

  it('says "not applied" when reading back shows the previous value', async () => {
    const fleet = lostAnswerFleet({ applies: false });
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander)).run();
    expect(result.rows[0]?.status).toBe('failed');
    expect(result.rows[0]?.reason).toMatch(/^not applied \(reading back shows the previous value\)/);
  });

  it('records an unknown row as "unknown" in the audit log, with the same words', async () => {
    const audit = new MemoryAuditSink();
    const fleet = lostAnswerFleet({
      applies: true,
      unreadable: (written) => failOnTheWay(written, 'gw-0', () => new NetworkError('x', 'socket hang up')),
    });
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander, { audit })).run();
    expect(audit.entries).toEqual([
      expect.objectContaining({ kind: 'fleet', outcome: 'unknown', error: result.rows[0]?.reason }),
    ]);
  });
});

describe('FleetJob confirmation', () => {
  it('is refused without a confirmation naming its gateway count', () => {
    const fleet = createSimulatedFleet(3);
    expect(() => new FleetJob(change, targets(3), jobOptions(fleet.commander))).toThrow(
      ConfirmationRequiredError,
    );
    expect(
      () =>
        new FleetJob(change, targets(3), jobOptions(fleet.commander, { confirmation: { gatewayCount: 2 } })),
    ).toThrow(/you confirmed 2 gateways but the change goes to 3/);
  });

  it('refuses blocking SSH on many gateways until DISABLE SSH is typed', () => {
    const fleet = createSimulatedFleet(7);
    const blockSsh = { kind: 'firewall', patch: { ssh: { enabled: false } } } as const;
    expect(
      () =>
        new FleetJob(
          blockSsh,
          targets(7),
          jobOptions(fleet.commander, { confirmation: { gatewayCount: 7, acknowledged: true } }),
        ),
    ).toThrow(/type "DISABLE SSH" to confirm: SSH will be refused on all 7 gateways/);
    const job = new FleetJob(
      blockSsh,
      targets(7),
      jobOptions(fleet.commander, {
        confirmation: { gatewayCount: 7, typed: { 'ssh-lockout': 'DISABLE SSH' } },
      }),
    );
    expect(job.table).toHaveLength(7);
  });

  it('refuses a software upgrade until the restart is acknowledged', () => {
    const fleet = createSimulatedFleet(2);
    expect(
      () =>
        new FleetJob(
          { kind: 'softwareUpgrade' },
          targets(2),
          jobOptions(fleet.commander, { confirmation: { gatewayCount: 2 } }),
        ),
    ).toThrow(
      /confirm the disruption first \(Each gateway downloads and installs every upgradable package, then restarts/,
    );
  });
});
