import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/services/api';
import { RfMeter } from '../../../../electron/services/commissioning';
import { commanderAnswering } from '../../../helpers/commander';

function rfCommander(
  readings: Array<Partial<Record<'signalStrength' | 'sinr' | 'rsrq' | 'ecio', number>> | 'silent'>,
) {
  let call = 0;
  return commanderAnswering(async () => {
    const reading = readings[Math.min(call++, readings.length - 1)];
    if (reading === 'silent') throw new ApiError(408, 2, 'Gateway did not answer', 'getWmRfInformation');
    return {
      radioInterface: 'LTE',
      activeBandClass: 4,
      activeChannel: 1,
      io: -70,
      signalStrength: -90,
      sinr: 10,
      rsrq: -12,
      ecio: -8,
      ...reading,
    };
  });
}

describe('RfMeter', () => {
  it('keeps the best value of each figure, even after it drops out of the series', async () => {
    const meter = new RfMeter({
      commander: rfCommander([
        { signalStrength: -70, sinr: 5 },
        { signalStrength: -95, sinr: 22 },
        { signalStrength: -99, rsrq: -7 },
      ]),
      gatewayId: 'gw-1',
      maxSamples: 2,
    });
    for (let index = 0; index < 3; index++) await meter.readOnce();
    expect(meter.samples.map((sample) => sample.signalStrength)).toEqual([-95, -99]);
    const best = meter.best;
    expect([best.signalStrength?.value, best.sinr?.value, best.rsrq?.value, best.ecio?.value]).toEqual([
      -70, 22, -7, -8,
    ]);
  });

  it('polls until stopped and reports a silent gateway in words without stopping', async () => {
    const meter = new RfMeter({
      commander: rfCommander(['silent', { sinr: 30 }]),
      gatewayId: 'gw-1',
      intervalMs: 1,
    });
    const errors: string[] = [];
    meter.on('error', ({ message }) => errors.push(message));
    const twoSamples = new Promise<void>((resolve) => {
      let count = 0;
      meter.on('sample', () => {
        if (++count === 2) resolve();
      });
    });
    meter.start();
    await twoSamples;
    await meter.stop();
    expect(meter.isRunning).toBe(false);
    expect(errors[0]).toMatch(/No RF reading: The gateway did not answer/);
    expect(meter.best.sinr?.value).toBe(30);
  });
});
