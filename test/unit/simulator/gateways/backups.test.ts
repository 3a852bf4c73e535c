import { describe, expect, it } from 'vitest';
import { createTestFleet, healthyGateway, TEST_TIMINGS } from '../world-factory';

type Backups = { status: string; backups: Array<{ description: string; date: string; index: number }> };

describe('simulated backups', () => {
  it('lists a created backup with its description, an ISO local date-time and a new index', async () => {
    const { tenant, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'createBackup', { description: 'before-commissioning' });
    const { backups } = (await run(gateway, 'getBackups')) as Backups;
    const created = backups.find((backup) => backup.description === 'before-commissioning');
    expect(created?.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(new Set(backups.map((backup) => backup.index)).size).toBe(backups.length);
  });

  it('restores the configuration captured in a backup and reboots briefly', async () => {
    const { clock, tenant, fleet, run } = createTestFleet();
    const gateway = healthyGateway(tenant);
    await run(gateway, 'setPreferredPingIpAddress', { ipAddr: '9.9.9.9' });
    const { index } = (await run(gateway, 'createBackup', { description: 'good' })) as { index: number };
    await run(gateway, 'setPreferredPingIpAddress', { ipAddr: '1.2.3.4' });
    await run(gateway, 'restoreBackup', { index });
    expect(fleet.statusOf(gateway)).toBe('OFFLINE');
    clock.advance(TEST_TIMINGS.rebootMs);
    expect(await run(gateway, 'getPreferredPingIpAddress')).toEqual({ ipAddr: '9.9.9.9' });
  });

  it('refuses to restore a backup index that does not exist', async () => {
    const { tenant, run } = createTestFleet();
    await expect(run(healthyGateway(tenant), 'restoreBackup', { index: 99 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('99'),
    });
  });
});
