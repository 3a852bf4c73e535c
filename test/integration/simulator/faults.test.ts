import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { rawClient } from './http-client';

describe('fault injection', () => {
  let simulator: RunningSimulator | undefined;
  afterEach(() => simulator?.close());

  const statuses = async (failRate: number, seed: number) => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', failRate, seed, gateways: 2, devices: 2 });
    const client = rawClient(simulator);
    const answers = [];
    for (let index = 0; index < 20; index++) answers.push(await client.get('/api/auth/user'));
    await simulator.close();
    return answers;
  };

  it('answers every request 503 with the error body at --fail-rate 1', async () => {
    const answers = await statuses(1, 1);
    expect(answers.every((answer) => answer.status === 503)).toBe(true);
    expect(answers[0]!.body).toMatchObject({
      status: 503,
      errorCode: 2,
      message: expect.stringContaining('fail-rate'),
    });
  });

  it('fails the same requests for the same seed', async () => {
    const first = (await statuses(0.5, 9)).map((answer) => answer.status);
    const second = (await statuses(0.5, 9)).map((answer) => answer.status);
    expect(first).toEqual(second);
    expect(first).toContain(503);
    expect(first).toContain(401);
  });

  it('cuts the connection without an answer at --drop-rate 1', async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', dropRate: 1, gateways: 2, devices: 2 });
    await expect(fetch(`${simulator.url}/api/auth/user`)).rejects.toThrow();
  });

  it('carries out a gateway write and then cuts its connection at --drop-after-rate 1; reads still answer', async () => {
    simulator = await startSimulator({
      port: 0,
      host: '127.0.0.1',
      dropAfterRate: 1,
      gateways: 2,
      devices: 2,
    });
    const client = rawClient(simulator);
    const { token } = await client.login('provider@fieldkit.demo', 'demo-provider');
    const gateway = simulator.fixture.gateways.find((candidate) => candidate.initialStatus === 'ONLINE')!;
    const command = (name: string) => `/api/gateway/${gateway.id}/command/${name}`;
    await expect(
      client.post(command('setPreferredPingIpAddress'), { ipAddr: '9.9.9.9' }, token),
    ).rejects.toThrow();
    const read = await client.post<{ ipAddr: string }>(command('getPreferredPingIpAddress'), {}, token);
    expect(read).toMatchObject({ status: 200, body: { ipAddr: '9.9.9.9' } });
  });

  it('delays every answer by --latency-ms', async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', latencyMs: 150, gateways: 2, devices: 2 });
    const started = performance.now();
    await rawClient(simulator).get('/api/auth/user');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('starts 10,000 gateways and 100,000 devices in seconds', async () => {
    const started = performance.now();
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', gateways: 10_000, devices: 100_000 });
    expect(performance.now() - started).toBeLessThan(10_000);
    const client = rawClient(simulator);
    const { token } = await client.login('provider@fieldkit.demo', 'demo-provider');
    const page = await client.get<{ totalElements: number }>(
      `/api/v2/provider/${simulator.fixture.providerId}/gateways`,
      token,
    );
    expect(page.body.totalElements).toBe(10_000);
  });
});
