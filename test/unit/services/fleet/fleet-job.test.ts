import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../../electron/services/api';
import { MemoryAuditSink } from '../../../../electron/services/audit';
import type { GatewayCommander } from '../../../../electron/services/commissioning';
import { ConfirmationRequiredError } from '../../../../electron/services/commands';
import { gatewayCommands } from '../../../../electron/shared/api/commands';
import {
  FleetJob,
  GROUP_PAGE_SIZE,
  listGroupTargets,
  type FleetChange,
  type FleetJobOptions,
  type FleetTarget,
  type GatewayGroupLister,
} from '../../../../electron/services/fleet';
import { commanderAnswering, interceptCommands } from '../../../helpers/commander';
import { makeGateway } from '../../../helpers/factories';
import { confirmedFor } from '../../../helpers/fleet-confirmation';

interface FakeFleetOptions {
  /** Errors to throw, per gateway, before answering normally (one per command call). */
  failures?: Record<string, unknown[]>;
  /** Gateways whose every command fails with this. */
  always?: Record<string, unknown>;
  /** Gateways that accept the set but keep the old value. */
  stubborn?: Set<string>;
  onCommand?: (gatewayId: string, name: string) => Promise<void> | void;
}

function createFakeFleet(options: FakeFleetOptions = {}) {
  const pingTargets = new Map<string, string>();
  let inFlight = 0;
  let maxInFlight = 0;
  const commander = commanderAnswering(async ({ gatewayId, name, request }) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await options.onCommand?.(gatewayId, name);
      await Promise.resolve();
      const queued = options.failures?.[gatewayId];
      if (queued && queued.length > 0) throw queued.shift();
      if (options.always?.[gatewayId]) throw options.always[gatewayId];
      if (name === 'getPreferredPingIpAddress') return { ipAddr: pingTargets.get(gatewayId) ?? '8.8.8.8' };
      if (name === 'setPreferredPingIpAddress') {
        const { ipAddr } = gatewayCommands.setPreferredPingIpAddress.request.parse(request);
        if (!options.stubborn?.has(gatewayId)) pingTargets.set(gatewayId, ipAddr);
        return { status: 'OK' };
      }
      throw new ApiError(404, 32, `unexpected ${name}`, name);
    } finally {
      inFlight--;
    }
  });
  return { commander, pingTargets, maxInFlight: () => maxInFlight };
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
    const fleet = createFakeFleet();
    const result = await confirmedJob(change, targets(40), jobOptions(fleet.commander)).run();
    expect(result.counts.done).toBe(40);
    expect([...fleet.pingTargets.values()].every((value) => value === '1.1.1.1')).toBe(true);
    expect(result.commandsSent).toBe(120);
  });

  it('never works on more gateways at once than the concurrency allows', async () => {
    const fleet = createFakeFleet({ onCommand: () => new Promise((resolve) => setImmediate(resolve)) });
    await confirmedJob(change, targets(50), jobOptions(fleet.commander, { concurrency: 4 })).run();
    expect(fleet.maxInFlight()).toBe(4);
  });

  it('retries transient failures and reports success', async () => {
    const fleet = createFakeFleet({
      failures: {
        'gw-1': [
          new ApiError(503, 2, 'Simulated server failure', 'x'),
          new NetworkError('x', 'socket hang up'),
        ],
      },
    });
    const result = await confirmedJob(change, targets(3), jobOptions(fleet.commander)).run();
    expect(result.rows[1]).toMatchObject({ status: 'done', attempts: 3 });
  });

  it('reports a refusal as failed with the reason in words, without retrying', async () => {
    const fleet = createFakeFleet({
      always: { 'gw-2': new ApiError(403, 20, 'You do not have permission', 'x') },
    });
    const result = await confirmedJob(change, targets(3), jobOptions(fleet.commander)).run();
    expect(result.rows[2]).toMatchObject({
      status: 'failed',
      attempts: 1,
      reason: 'Not allowed: You do not have permission (1 attempt)',
    });
  });

  it('reports a gateway that keeps failing after retries as failed, counting the attempts', async () => {
    const fleet = createFakeFleet({
      always: { 'gw-0': new ApiError(503, 2, 'Simulated server failure', 'x') },
    });
    const result = await confirmedJob(
      change,
      targets(2),
      jobOptions(fleet.commander, { maxAttempts: 3 }),
    ).run();
    expect(result.rows[0]).toMatchObject({ status: 'failed', attempts: 3 });
    expect(result.rows[0]?.reason).toMatch(/The server failed \(503\).*\(3 attempts\)/);
  });

  it('skips a gateway that does not answer before any change was sent as offline', async () => {
    const fleet = createFakeFleet({ always: { 'gw-0': new ApiError(408, 2, 'did not answer', 'x') } });
    const result = await confirmedJob(change, targets(2), jobOptions(fleet.commander)).run();
    expect(result.rows[0]).toMatchObject({ status: 'skipped', attempts: 2 });
    expect(result.rows[0]?.reason).toBe(
      'Offline: the gateway did not answer (2 attempts); no change was sent to it',
    );
  });

  it('skips gateways the list says are offline without sending anything', async () => {
    const fleet = createFakeFleet();
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
    const fleet = createFakeFleet({ stubborn: new Set(['gw-0']) });
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
    const fleet = createFakeFleet({
      onCommand: (_gatewayId, name) => {
        if (name === 'getPreferredPingIpAddress' && ++started === 5) controller.abort();
      },
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
    const fleet = createFakeFleet();
    const input = [...targets(3), { gatewayId: 'gw-1' }];
    const result = await confirmedJob(change, input, jobOptions(fleet.commander)).run();
    expect(result.rows.map((row) => row.gatewayId)).toEqual(['gw-0', 'gw-1', 'gw-2']);
  });

  it('re-runs only the failed gateways', async () => {
    const always: Record<string, unknown> = { 'gw-1': new ApiError(400, 30, 'busy', 'x') };
    const fleet = createFakeFleet({ always });
    const first = confirmedJob(change, targets(4), jobOptions(fleet.commander));
    await first.run();
    delete always['gw-1'];
    const again = first.retryFailed({ confirmation: { gatewayCount: 1 } });
    const result = await again.run();
    expect(result.rows.map((row) => [row.gatewayId, row.status])).toEqual([['gw-1', 'done']]);
    expect(again.jobId).not.toBe(first.jobId);
  });

  it('refuses an invalid change for every gateway before sending anything', async () => {
    const fleet = createFakeFleet();
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
    const fleet = createFakeFleet({ always: { 'gw-1': new ApiError(400, 30, 'refused', 'x') } });
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
    const fleet = createFakeFleet();
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
    const fleet = createFakeFleet();
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

/** A fake fleet whose writes are carried out and whose answers are then lost; reads fail with `readError`. */
function lostAnswerFleet(options: { applies: boolean; readError?: () => unknown }) {
  let isWritten = false;
  const fleet = createFakeFleet({ stubborn: options.applies ? new Set() : new Set(['gw-0']) });
  interceptCommands(fleet.commander, async ({ name, forward }) => {
    if (isWritten && options.readError) throw options.readError();
    const answer = await forward();
    if (name === 'setPreferredPingIpAddress') {
      isWritten = true;
      throw new NetworkError('x', 'socket hang up');
    }
    return answer;
  });
  return { commander: fleet.commander, pingTargets: fleet.pingTargets };
}

describe('FleetJob rows after a change whose answer was lost', () => {
  it('says "unknown", never "failed", when the gateway cannot be read back', async () => {
    const fleet = lostAnswerFleet({
      applies: true,
      readError: () => new ApiError(408, 2, 'did not answer', 'getPreferredPingIpAddress'),
    });
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander)).run();
    expect(fleet.pingTargets.get('gw-0')).toBe('1.1.1.1');
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
      readError: () => new NetworkError('x', 'socket hang up'),
    });
    const result = await confirmedJob(change, targets(1), jobOptions(fleet.commander, { audit })).run();
    expect(audit.entries).toEqual([
      expect.objectContaining({ kind: 'fleet', outcome: 'unknown', error: result.rows[0]?.reason }),
    ]);
  });
});

describe('FleetJob confirmation', () => {
  it('is refused without a confirmation naming its gateway count', () => {
    const fleet = createFakeFleet();
    expect(() => new FleetJob(change, targets(3), jobOptions(fleet.commander))).toThrow(
      ConfirmationRequiredError,
    );
    expect(
      () =>
        new FleetJob(change, targets(3), jobOptions(fleet.commander, { confirmation: { gatewayCount: 2 } })),
    ).toThrow(/the change goes to 3 gateways, not the 2 you confirmed/);
  });

  it('refuses blocking SSH on many gateways until DISABLE SSH is typed', () => {
    const fleet = createFakeFleet();
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
    const fleet = createFakeFleet();
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
