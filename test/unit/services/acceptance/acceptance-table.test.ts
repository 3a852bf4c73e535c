import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ACCEPTANCE_TABLE,
  judgeAtMost,
  judgeBand,
  resolveAcceptanceTable,
} from '../../../../electron/services/acceptance';
import {
  judgeCellular,
  judgeLora,
  judgeUplink,
  type GatewayReadings,
} from '../../../../electron/services/acceptance/judge';
import { readGpsFix, readPingBlock } from '../../../../electron/services/acceptance/loose-answers';
import { acceptanceItemWords } from '../../../../electron/shared/visit/acceptance-words';

const table = DEFAULT_ACCEPTANCE_TABLE;

/** A healthy modem's reads with one radio figure changed. */
function cellularReadings(
  rf: Partial<{ rsrq: number; sinr: number; signalStrength: number }>,
): GatewayReadings {
  return {
    connectivity: {
      ok: true,
      value: [
        { index: 0, type: 'Ethernet', preferred: true, fallback: false },
        { index: 1, type: 'Cellular', preferred: false, fallback: true },
      ],
    },
    rf: {
      ok: true,
      value: {
        radioInterface: 'LTE',
        activeBandClass: 4,
        activeChannel: 2175,
        ecio: -6,
        io: -70,
        rsrq: -9,
        sinr: 20,
        signalStrength: -70,
        ...rf,
      },
    },
  };
}

describe('the judging table', () => {
  it.each([
    [-15, 'go'],
    [-15.5, 'warn'],
    [-20, 'warn'],
    [-20.5, 'no-go'],
  ] as const)('judges an LTE RSRQ of %s dB as %s (≥ −15 good, −15…−20 fair, < −20 poor)', (rsrq, verdict) => {
    expect(judgeBand(rsrq, table.rsrqDb)).toBe(verdict);
    const item = judgeCellular(cellularReadings({ rsrq }), table);
    expect(item.verdict).toBe(verdict);
    expect(acceptanceItemWords(item).findings).toContain(
      `RSRQ ${rsrq} dB: ${{ go: 'good', warn: 'fair', 'no-go': 'poor' }[verdict]}.`,
    );
  });

  it.each([
    [13, 'go'],
    [12, 'warn'],
    [0, 'warn'],
    [-1, 'no-go'],
  ] as const)('judges an LTE SINR of %s dB as %s (≥ 13 good, 0…13 fair, < 0 poor)', (sinr, verdict) => {
    expect(judgeCellular(cellularReadings({ sinr }), table).verdict).toBe(verdict);
  });

  it.each([
    [-85, 'go'],
    [-86, 'warn'],
    [-95, 'warn'],
    [-96, 'no-go'],
  ] as const)('judges a signal strength of %s dBm as %s', (signalStrength, verdict) => {
    expect(judgeCellular(cellularReadings({ signalStrength }), table).verdict).toBe(verdict);
  });

  it('gives a poor radio the fix that opens Diagnostics (the RF meter)', () => {
    const item = judgeCellular(cellularReadings({ rsrq: -22 }), table);
    expect(item.fix?.target).toBe('diagnostics');
    expect(acceptanceItemWords(item).fix).toMatch(/LTE antenna/);
  });

  it.each([
    [0, 'go'],
    [1, 'warn'],
    [25, 'warn'],
    [26, 'no-go'],
  ] as const)('judges a ping loss of %s %% as %s', (loss, verdict) => {
    expect(judgeAtMost(loss, table.pingLossPercent)).toBe(verdict);
  });

  it.each([
    [10, 'go'],
    [10.1, 'warn'],
    [25, 'warn'],
    [25.1, 'no-go'],
  ] as const)('judges a CRC-error share of %s %% as %s', (share, verdict) => {
    expect(judgeAtMost(share, table.crcErrorPercent)).toBe(verdict);
  });

  it('lays a profile override over the defaults, field by field', () => {
    const resolved = resolveAcceptanceTable({ observationSeconds: 10, rsrqDb: { go: -12, warn: -18 } });
    expect(resolved.observationSeconds).toBe(10);
    expect(resolved.rsrqDb).toEqual({ go: -12, warn: -18 });
    expect(resolved.sinrDb).toEqual(DEFAULT_ACCEPTANCE_TABLE.sinrDb);
  });
});

describe('the items', () => {
  it('says a gateway without a cellular link has no modem fitted', () => {
    const readings: GatewayReadings = {
      connectivity: { ok: true, value: [{ index: 0, type: 'Ethernet', preferred: true, fallback: false }] },
    };
    expect(judgeCellular(readings, table)).toMatchObject({ verdict: 'not-applicable' });
  });

  it('is a no-go with the Firewall wizard when the firewall blocks the ping check', () => {
    const readings: GatewayReadings = {
      firewall: { ok: true, value: { enabled: true, ping: { enabled: false } } },
    };
    const item = judgeUplink(readings, table);
    expect(item.verdict).toBe('no-go');
    expect(item.fix?.target).toBe('firewall');
    expect(acceptanceItemWords(item).findings).toContain(
      'The firewall blocks ping, so the uplink check fails.',
    );
  });

  it('says unknown, with why, for a read that failed', () => {
    const item = judgeUplink({ firewall: { ok: false, error: 'the gateway did not answer' } }, table);
    expect(item.verdict).toBe('unknown');
    expect(acceptanceItemWords(item).findings).toEqual([
      'The firewall could not be read: the gateway did not answer',
    ]);
  });

  it('is a no-go for a concentrator that heard nothing over the window', () => {
    const counters = {
      numTxPackets: 0,
      numRxPackets: 50,
      rxFineTimestamp: 0,
      rxNoFineTimestamp: 0,
      rxCrcOkPackets: 50,
      rxCrcErrPackets: 0,
      noMatch: 0,
    };
    const readings: GatewayReadings = {
      antennas: { ok: true, value: { antennasCount: 2, status: 'OK' } },
      radioBefore: { ok: true, value: [counters] },
      radioAfter: { ok: true, value: [counters] },
    };
    const item = judgeLora(readings, table, 60, true);
    expect(item.verdict).toBe('no-go');
    expect(acceptanceItemWords(item).findings).toContain('The concentrator received 0 packets in 60 s.');
  });

  it('says the LoRa item is not finished when the window was cancelled', () => {
    const counters = {
      numTxPackets: 0,
      numRxPackets: 50,
      rxFineTimestamp: 0,
      rxNoFineTimestamp: 0,
      rxCrcOkPackets: 50,
      rxCrcErrPackets: 0,
      noMatch: 0,
    };
    const readings: GatewayReadings = { radioBefore: { ok: true, value: [counters] } };
    expect(judgeLora(readings, table, 60, false).verdict).toBe('not-finished');
  });
});

describe('answers the spec does not show', () => {
  it.each([
    [{ latitude: 45.5, longitude: -73.6, fix: '3D' }, true],
    [{ latitude: 45.5, longitude: -73.6 }, true],
    [{ latitude: 0, longitude: 0, fix: '3D' }, false],
    [{ latitude: 45.5, longitude: -73.6, fix: 'none' }, false],
    [{ latitude: 45.5, longitude: -73.6, fix: false }, false],
    ['no answer', false],
  ])('reads %j as a fix: %s', (answer, hasFix) => {
    expect(readGpsFix(answer).hasFix).toBe(hasFix);
  });

  it.each([
    [{ enabled: true, ping: { enabled: false } }, 'blocked'],
    [{ enabled: false, ping: { enabled: false } }, 'open'],
    [{ enabled: true, ping: { enabled: true, limit: { enabled: true, pingPerMinLimit: 5 } } }, 'limited'],
    [{ enabled: true, ping: { enabled: true, limit: { enabled: true, pingPerMinLimit: 20 } } }, 'open'],
    [{ enabled: true }, 'unknown'],
  ] as const)('reads the firewall %j as %s for the ping check', (answer, verdict) => {
    expect(readPingBlock(answer, table.firewallMinPingsPerMinute)).toBe(verdict);
  });
});
