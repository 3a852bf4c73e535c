import { z } from 'zod';
import { NO_FIX_WORDS } from '../../shared/visit/acceptance-words';

/**
 * getGpsCoordinates' answer, which the spec does not show (API assumption, docs/api.md): `latitude` and
 * `longitude` in degrees, and optionally `fix` ("none", "2D", "3D" or a boolean) and `satellites`.
 */
const GpsAnswerSchema = z.looseObject({
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  fix: z.union([z.string(), z.boolean()]).optional(),
  satellites: z.number().optional(),
});

/** What a GPS answer says: a fix with its position, or none. */
export type GpsFix =
  | { hasFix: true; latitude: number; longitude: number; kind?: string; satellites?: number }
  | { hasFix: false; kind?: string };

/**
 * Reads a GPS answer: no fix when `fix` says so (false, "none", "no fix": then no `kind`, the words say it), when a
 * coordinate is missing, or when both are 0 (a receiver without a fix often reports 0, 0).
 */
export function readGpsFix(answer: unknown): GpsFix {
  const parsed = GpsAnswerSchema.safeParse(answer);
  if (!parsed.success) return { hasFix: false };
  const { latitude, longitude, fix, satellites } = parsed.data;
  const kind = typeof fix === 'string' ? fix : undefined;
  const saysNoFix = fix === false || (typeof fix === 'string' && NO_FIX_WORDS.test(fix.trim()));
  // A fix state that only says "no fix" ("none", false) adds nothing to "No GPS fix": only another is kept.
  if (saysNoFix) return { hasFix: false };
  if (latitude === undefined || longitude === undefined || (latitude === 0 && longitude === 0))
    return { hasFix: false, ...(kind ? { kind } : {}) };
  return {
    hasFix: true,
    latitude,
    longitude,
    ...(kind ? { kind } : {}),
    ...(satellites === undefined ? {} : { satellites }),
  };
}

const FirewallPingSchema = z.looseObject({
  enabled: z.boolean().optional(),
  ping: z
    .looseObject({
      enabled: z.boolean().optional(),
      limit: z
        .looseObject({ enabled: z.boolean().optional(), pingPerMinLimit: z.number().optional() })
        .optional(),
    })
    .optional(),
});

/**
 * Whether the firewall lets the gateway's ping check through (API assumption, docs/acceptance.md): `ping.enabled`
 * false blocks it while the firewall is on; a ping limit under `minPerMinute` may drop it; an answer without a
 * ping section says nothing (`unknown`).
 */
export function readPingBlock(
  answer: unknown,
  minPerMinute: number,
): 'open' | 'blocked' | 'limited' | 'unknown' {
  const parsed = FirewallPingSchema.safeParse(answer);
  if (!parsed.success) return 'unknown';
  const { enabled, ping } = parsed.data;
  if (enabled === false) return 'open';
  if (!ping || ping.enabled === undefined) return 'unknown';
  if (!ping.enabled) return 'blocked';
  const limit = ping.limit;
  if (limit?.enabled === true && limit.pingPerMinLimit !== undefined && limit.pingPerMinLimit < minPerMinute)
    return 'limited';
  return 'open';
}
