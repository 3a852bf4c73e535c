import { z } from 'zod';
import type { GroupedSeries } from '../../lib/components/chart-data';
import { format } from '../../../../electron/shared/format';
import {
  ScanChannelSchema,
  type ScanChannel,
} from '../../../../electron/shared/ipc/domains/gateway-task-answers';
import { t } from '../../lib/i18n';

/** Spectral scan results with a channel list (the spec leaves the shape open; an API assumption). */
const ScanResultsSchema = z.looseObject({ channels: z.array(z.unknown()) });

/**
 * The four RF figures an antenna is aligned by, with their units (higher is better for each). SINR, RSRQ and
 * Ec/Io are written as they are in every language (the glossary); signal strength is words.
 */
export const RF_FIGURES = [
  { key: 'signalStrength', label: null, unit: 'dBm' },
  { key: 'sinr', label: 'SINR', unit: 'dB' },
  { key: 'rsrq', label: 'RSRQ', unit: 'dB' },
  { key: 'ecio', label: 'Ec/Io', unit: 'dB' },
] as const;

/** A figure's name as shown, in the current language. */
export function figureWords(figure: (typeof RF_FIGURES)[number]): string {
  return figure.label ?? t('diagnostics:rfSignalStrength');
}

/** A figure's value with its unit, as the app writes numbers ("-97 dBm", "7.5 dB"). */
export function formatFigure(value: number | null | undefined, unit: 'dBm' | 'dB'): string {
  return unit === 'dBm' ? format.decibelMilliwatts(value) : format.decibels(value);
}

/** One RF figure's key. */
export type RfFigure = (typeof RF_FIGURES)[number]['key'];

/** One RF reading. */
export interface RfReading {
  at: number;
  signalStrength: number;
  sinr: number;
  rsrq: number;
  ecio: number;
}

/**
 * One figure's chart: the readings, and the best value seen drawn as a flat line across the same span (so the
 * technician turning the antenna sees how far from the best the current reading is).
 */
export function rfChartSeries(
  readings: readonly RfReading[],
  figure: RfFigure,
  best: number | null,
): GroupedSeries {
  const times = readings.map((reading) => reading.at / 1000);
  return {
    labels: [t('diagnostics:rfNow'), t('diagnostics:rfBestSeen')],
    tags: [{}, {}],
    times,
    values: [readings.map((reading) => reading[figure]), readings.map(() => best)],
  };
}

/**
 * The channels of a spectral scan's results, or an empty list when the answer has none we understand; a channel
 * that does not fit ScanChannelSchema is left out.
 */
export function scanChannels(results: unknown): ScanChannel[] {
  const channels = ScanResultsSchema.safeParse(results).data?.channels ?? [];
  return channels.flatMap((channel) => ScanChannelSchema.safeParse(channel).data ?? []);
}

/** SVG polyline points of a scan: x across the width by channel, y from minRx (bottom) to maxRx (top). */
export function scanPoints(
  values: readonly number[],
  size: { width: number; height: number },
  range: { min: number; max: number },
): string {
  const span = Math.max(1, range.max - range.min);
  const step = values.length > 1 ? size.width / (values.length - 1) : 0;
  return values
    .map((value, index) => {
      const clamped = Math.min(range.max, Math.max(range.min, value));
      const y = size.height - ((clamped - range.min) / span) * size.height;
      return `${(index * step).toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}
