import { z } from 'zod';

/**
 * A band of a measurement: at or above `go` it is go, at or above `warn` (and below `go`) it is warn, below
 * `warn` no-go. Bigger is better (for a "smaller is better" figure, such as a loss, the table stores the negative).
 */
export const BandSchema = z
  .object({ go: z.number(), warn: z.number() })
  .strict()
  .refine((band) => band.go >= band.warn, { message: 'go must be at or above warn' });
/** A band of a measurement (see BandSchema). */
export type Band = z.infer<typeof BandSchema>;

/**
 * Every threshold, window and switch of the site acceptance check, in one table: the defaults below, which a
 * profile may override field by field (`acceptance` in the profile, docs/acceptance.md). Nothing else in the check
 * holds a number.
 */
export const AcceptanceTableSchema = z
  .object({
    /**
     * LTE radio quality (getWmRfInformation), from the Teltonika Networks wiki "Mobile Signal Strength
     * Recommendations": RSRQ −10…−15 dB good, −15…−20 fair, below −20 poor (cell edge); SINR ≥ 13 dB good,
     * 0…13 mid cell, below 0 cell edge; RSSI −75…−85 dBm fair, −85…−95 poor, below −95 no signal. Fair is warn,
     * poor no-go; RSSI's "poor" band (−85…−95) is a warn here, its "no signal" a no-go.
     */
    rsrqDb: BandSchema,
    sinrDb: BandSchema,
    signalStrengthDbm: BandSchema,
    /** Packets pinged to each destination. */
    pingPackets: z.int().min(1).max(100),
    /** Loss in % to the ping-check target or the public address: at most `go` is go, at most `warn` warn. */
    pingLossPercent: z.object({ go: z.number().min(0).max(100), warn: z.number().min(0).max(100) }).strict(),
    /** The public address pinged besides the gateway's own ping-check target. */
    publicPingAddress: z.string().min(1).max(253),
    /** The firewall's ping limit below this many pings a minute is a warn (the check sends one every few s). */
    firewallMinPingsPerMinute: z.int().min(0),
    /** How long the LoRa counters are watched (s); 0 reads them once and judges only the CRC share. */
    observationSeconds: z.int().min(0).max(3_600),
    /** CRC-error share of received packets in %: at most `go` is go, at most `warn` warn, above no-go. */
    crcErrorPercent: z.object({ go: z.number().min(0).max(100), warn: z.number().min(0).max(100) }).strict(),
    /** Antennas each model is expected to report (by gatewayModelName); others expect `defaultAntennas`. */
    antennasByModel: z.record(z.string().max(100), z.int().min(0).max(16)),
    defaultAntennas: z.int().min(0).max(16),
    /** Models on which no GPS fix is a no-go (a timing-critical install); elsewhere it is a warn. */
    gpsRequiredModels: z.array(z.string().max(100)).max(100),
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
    /** Offline: the gateway's clock this far from the laptop's is a no-go for a LoRa gateway. */
    clockSkewSeconds: z.int().min(1),
  })
  .strict();
/** Every threshold of the check. */
export type AcceptanceTable = z.infer<typeof AcceptanceTableSchema>;

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

/** A measurement judged by a band: go at or above `go`, warn at or above `warn`, else no-go. */
export function judgeBand(value: number, band: Band): 'go' | 'warn' | 'no-go' {
  if (value >= band.go) return 'go';
  if (value >= band.warn) return 'warn';
  return 'no-go';
}

/** A "smaller is better" percentage judged: go at or below `go`, warn at or below `warn`, else no-go. */
export function judgeAtMost(value: number, limits: { go: number; warn: number }): 'go' | 'warn' | 'no-go' {
  if (value <= limits.go) return 'go';
  if (value <= limits.warn) return 'warn';
  return 'no-go';
}
