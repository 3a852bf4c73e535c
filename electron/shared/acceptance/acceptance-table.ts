import { z } from 'zod';
import { spoken } from '../api/common';

/**
 * A "bigger is better" band of a measurement between `min` and `max`: at or above `go` it is go, at or above
 * `warn` (and below `go`) warn, below `warn` no-go; `go` may not be below `warn`.
 */
function bandBetween(min: number, max: number) {
  return z
    .object({ go: z.number().min(min).max(max), warn: z.number().min(min).max(max) })
    .strict()
    .refine((band) => band.go >= band.warn, {
      error: spoken('acceptance:bandGoBelowWarn'),
      path: ['go'],
    });
}

/** A "smaller is better" percentage: at most `go` is go, at most `warn` warn, above no-go; `go` ≤ `warn`. */
const PercentLimitsSchema = z
  .object({ go: z.number().min(0).max(100), warn: z.number().min(0).max(100) })
  .strict()
  .refine((limits) => limits.go <= limits.warn, {
    error: spoken('acceptance:limitGoAboveWarn'),
    path: ['go'],
  });

/**
 * A band of a measurement: at or above `go` it is go, at or above `warn` (and below `go`) it is warn, below `warn`
 * no-go. Bigger is better.
 */
export type Band = z.infer<ReturnType<typeof bandBetween>>;

/**
 * Every threshold and window of the site acceptance check, in one table: the defaults below, which a profile may
 * override field by field (docs/acceptance.md; the Settings screen "Acceptance check" writes the overrides). The
 * bounds of each field are what the screen offers and what the overrides file may hold. Nothing else in the check
 * holds a number.
 */
export const AcceptanceTableSchema = z
  .object({
    /**
     * LTE radio quality (getWmRfInformation), from the Teltonika Networks wiki "Mobile Signal Strength
     * Recommendations": RSRQ −10…−15 dB good, −15…−20 fair, below −20 poor (cell edge); SINR ≥ 13 dB good,
     * 0…13 mid cell, below 0 cell edge; RSSI −75…−85 dBm fair, −85…−95 poor, below −95 no signal. Fair is warn,
     * poor no-go; RSSI's "poor" band (−85…−95) is a warn here, its "no signal" a no-go. The bounds are wider than
     * what a modem reports (RSRQ −34…2.5 dB, SINR −23…40 dB, RSSI −120…−25 dBm), rounded out.
     */
    rsrqDb: bandBetween(-40, 5),
    sinrDb: bandBetween(-30, 50),
    signalStrengthDbm: bandBetween(-150, 0),
    /** Packets pinged to each destination. */
    pingPackets: z.int().min(1).max(100),
    /** Loss in % to the ping-check target or the public address: at most `go` is go, at most `warn` warn. */
    pingLossPercent: PercentLimitsSchema,
    /** The public address pinged besides the gateway's own ping-check target. */
    publicPingAddress: z.string().trim().min(1).max(253),
    /** The firewall's ping limit below this many pings a minute is a warn (the check sends one every few s). */
    firewallMinPingsPerMinute: z.int().min(0).max(6_000),
    /** How long the LoRa counters are watched (s); 0 reads them once and judges only the CRC share. */
    observationSeconds: z.int().min(0).max(3_600),
    /** CRC-error share of received packets in %: at most `go` is go, at most `warn` warn, above no-go. */
    crcErrorPercent: PercentLimitsSchema,
    /** Antennas each model is expected to report (by gatewayModelName); others expect `defaultAntennas`. */
    antennasByModel: z.record(z.string().min(1).max(100), z.int().min(0).max(16)),
    defaultAntennas: z.int().min(0).max(16),
    /** Models on which no GPS fix is a no-go (a timing-critical install); elsewhere it is a warn. */
    gpsRequiredModels: z.array(z.string().min(1).max(100)).max(100),
    /** A backup younger than this counts as "from today". */
    backupMaxAgeHours: z
      .number()
      .min(0)
      .max(24 * 365),
    /** An alarm raised within this window that has not cleared is a no-go; one raised before it, a warn. */
    alarmWindowMinutes: z
      .int()
      .min(1)
      .max(24 * 60),
    /** Offline: the gateway's clock this far from the laptop's is a no-go for a LoRa gateway (at most a day). */
    clockSkewSeconds: z.int().min(1).max(86_400),
  })
  .strict();
/** Every threshold of the check. */
export type AcceptanceTable = z.infer<typeof AcceptanceTableSchema>;
/** The name of one field of the table. */
export type AcceptanceField = keyof AcceptanceTable;

/** What a profile may override: any field of the table (bands whole). */
export const AcceptanceOverrideSchema = AcceptanceTableSchema.partial();
/** A profile's overrides of the table. */
export type AcceptanceOverride = z.infer<typeof AcceptanceOverrideSchema>;

/** The table the check uses when the profile overrides nothing (docs/acceptance.md lists it). */
export const DEFAULT_ACCEPTANCE_TABLE: AcceptanceTable = {
  rsrqDb: { go: -15, warn: -20 },
  sinrDb: { go: 13, warn: 0 },
  signalStrengthDbm: { go: -85, warn: -95 },
  pingPackets: 4,
  pingLossPercent: { go: 0, warn: 25 },
  publicPingAddress: '1.1.1.1',
  firewallMinPingsPerMinute: 20,
  observationSeconds: 60,
  crcErrorPercent: { go: 10, warn: 25 },
  antennasByModel: {},
  defaultAntennas: 2,
  gpsRequiredModels: [],
  backupMaxAgeHours: 24,
  alarmWindowMinutes: 60,
  clockSkewSeconds: 120,
};

/** The table with a profile's overrides laid over the defaults (an invalid override is refused by its schema). */
export function resolveAcceptanceTable(override: AcceptanceOverride | undefined): AcceptanceTable {
  return { ...DEFAULT_ACCEPTANCE_TABLE, ...(override ?? {}) };
}
