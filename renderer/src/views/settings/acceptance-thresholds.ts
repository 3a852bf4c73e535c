import type { z } from 'zod';
import {
  AcceptanceOverrideSchema,
  AcceptanceTableSchema,
  type AcceptanceField,
  type AcceptanceOverride,
  type AcceptanceTable,
} from '../../../../electron/shared/acceptance/acceptance-table';
import { format } from '../../../../electron/shared/format';
import { t, type MessageKey } from '../../lib/i18n';

/**
 * How a field of the thresholds table is edited: a band (two numbers, bigger or smaller is better), one number, a
 * text, a list of model names, or antennas per model.
 */
export type ThresholdKind = 'at-least' | 'at-most' | 'number' | 'text' | 'models' | 'antennas';

/** One field of the table as the screen shows it: its kind, its words and its unit. */
export interface ThresholdField {
  field: AcceptanceField;
  kind: ThresholdKind;
  label: MessageKey;
  hint: MessageKey;
  unit?: MessageKey;
}

/** The fields of the table grouped by the item of the check they judge, in the order the card lists the items. */
export const THRESHOLD_GROUPS: ReadonlyArray<{ title: MessageKey; fields: readonly ThresholdField[] }> = [
  {
    title: 'acceptance:itemUplink',
    fields: [
      {
        field: 'pingPackets',
        kind: 'number',
        label: 'acceptance:fieldPingPackets',
        hint: 'acceptance:hintPingPackets',
        unit: 'acceptance:unitPackets',
      },
      {
        field: 'pingLossPercent',
        kind: 'at-most',
        label: 'acceptance:fieldPingLoss',
        hint: 'acceptance:hintPingLoss',
        unit: 'acceptance:unitPercent',
      },
      {
        field: 'publicPingAddress',
        kind: 'text',
        label: 'acceptance:fieldPublicPingAddress',
        hint: 'acceptance:hintPublicPingAddress',
      },
      {
        field: 'firewallMinPingsPerMinute',
        kind: 'number',
        label: 'acceptance:fieldFirewallPings',
        hint: 'acceptance:hintFirewallPings',
        unit: 'acceptance:unitPingsPerMinute',
      },
    ],
  },
  {
    title: 'acceptance:itemCellular',
    fields: [
      {
        field: 'rsrqDb',
        kind: 'at-least',
        label: 'acceptance:fieldRsrq',
        hint: 'acceptance:hintRsrq',
        unit: 'acceptance:unitDb',
      },
      {
        field: 'sinrDb',
        kind: 'at-least',
        label: 'acceptance:fieldSinr',
        hint: 'acceptance:hintSinr',
        unit: 'acceptance:unitDb',
      },
      {
        field: 'signalStrengthDbm',
        kind: 'at-least',
        label: 'acceptance:fieldSignalStrength',
        hint: 'acceptance:hintSignalStrength',
        unit: 'acceptance:unitDbm',
      },
    ],
  },
  {
    title: 'acceptance:itemLora',
    fields: [
      {
        field: 'observationSeconds',
        kind: 'number',
        label: 'acceptance:fieldObservation',
        hint: 'acceptance:hintObservation',
        unit: 'acceptance:unitSeconds',
      },
      {
        field: 'crcErrorPercent',
        kind: 'at-most',
        label: 'acceptance:fieldCrcErrors',
        hint: 'acceptance:hintCrcErrors',
        unit: 'acceptance:unitPercent',
      },
      {
        field: 'defaultAntennas',
        kind: 'number',
        label: 'acceptance:fieldDefaultAntennas',
        hint: 'acceptance:hintDefaultAntennas',
        unit: 'acceptance:unitAntennas',
      },
      {
        field: 'antennasByModel',
        kind: 'antennas',
        label: 'acceptance:fieldAntennasByModel',
        hint: 'acceptance:hintAntennasByModel',
      },
    ],
  },
  {
    title: 'acceptance:itemPosition',
    fields: [
      {
        field: 'gpsRequiredModels',
        kind: 'models',
        label: 'acceptance:fieldGpsModels',
        hint: 'acceptance:hintGpsModels',
      },
    ],
  },
  {
    title: 'acceptance:itemBackup',
    fields: [
      {
        field: 'backupMaxAgeHours',
        kind: 'number',
        label: 'acceptance:fieldBackupAge',
        hint: 'acceptance:hintBackupAge',
        unit: 'acceptance:unitHours',
      },
    ],
  },
  {
    title: 'acceptance:itemAlarms',
    fields: [
      {
        field: 'alarmWindowMinutes',
        kind: 'number',
        label: 'acceptance:fieldAlarmWindow',
        hint: 'acceptance:hintAlarmWindow',
        unit: 'acceptance:unitMinutes',
      },
    ],
  },
  {
    title: 'acceptance:itemClock',
    fields: [
      {
        field: 'clockSkewSeconds',
        kind: 'number',
        label: 'acceptance:fieldClockSkew',
        hint: 'acceptance:hintClockSkew',
        unit: 'acceptance:unitSeconds',
      },
    ],
  },
];

/** What is typed for each field: one text per box, a band's boxes as `<field>.go` and `<field>.warn`. */
export type ThresholdDraft = Record<string, string>;
/** A message for each box whose text is refused, by the box's key (as in ThresholdDraft). */
export type ThresholdErrors = Record<string, string>;

/** The boxes of a field: a band has two (`.go`, `.warn`), every other field one. */
export function boxesOf(field: ThresholdField): string[] {
  return field.kind === 'at-least' || field.kind === 'at-most'
    ? [`${field.field}.go`, `${field.field}.warn`]
    : [field.field];
}

/** The boxes' texts of one field's value. */
export function draftOf(field: ThresholdField, table: AcceptanceTable): ThresholdDraft {
  const value = table[field.field];
  switch (field.kind) {
    case 'at-least':
    case 'at-most': {
      const band = value as { go: number; warn: number };
      return { [`${field.field}.go`]: String(band.go), [`${field.field}.warn`]: String(band.warn) };
    }
    case 'models':
      return { [field.field]: (value as string[]).join('\n') };
    case 'antennas':
      return {
        [field.field]: Object.entries(value as Record<string, number>)
          .map(([model, count]) => `${model} = ${count}`)
          .join('\n'),
      };
    default:
      return { [field.field]: String(value) };
  }
}

/** The boxes' texts of a whole table. */
export function draftOfTable(table: AcceptanceTable): ThresholdDraft {
  return Object.assign(
    {},
    ...THRESHOLD_GROUPS.flatMap((group) => group.fields.map((field) => draftOf(field, table))),
  );
}

/**
 * What the boxes say, checked: the fields that differ from the defaults (the profile's overrides), or a message
 * for each box that is refused. Bounds come from the table's schema; a band's order from its rule.
 */
export function readDraft(
  draft: ThresholdDraft,
  defaults: AcceptanceTable,
): { ok: true; override: AcceptanceOverride } | { ok: false; errors: ThresholdErrors } {
  const errors: ThresholdErrors = {};
  const table: Record<string, unknown> = {};
  for (const field of THRESHOLD_GROUPS.flatMap((group) => group.fields)) {
    const value = readField(field, draft, errors);
    if (value === undefined) continue;
    table[field.field] = value;
    // Each field's own rules (a band's order) are checked even when another field is refused.
    const checked = AcceptanceTableSchema.shape[field.field].safeParse(value);
    if (!checked.success)
      for (const issue of checked.error.issues)
        errors[[field.field, ...issue.path].join('.')] ??= issue.message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const checked = AcceptanceTableSchema.safeParse(table);
  if (!checked.success) {
    for (const issue of checked.error.issues) errors[issue.path.join('.')] ??= issue.message;
    return { ok: false, errors };
  }
  const override: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(checked.data))
    if (JSON.stringify(value) !== JSON.stringify(defaults[field as AcceptanceField])) override[field] = value;
  const parsed = AcceptanceOverrideSchema.safeParse(override);
  return parsed.success ? { ok: true, override: parsed.data } : { ok: false, errors: {} };
}

/** The default of a field in words, with its unit. */
export function describeDefault(field: ThresholdField, defaults: AcceptanceTable): string {
  const value = defaults[field.field];
  const unit = field.unit ? t(field.unit) : '';
  switch (field.kind) {
    case 'at-least':
    case 'at-most': {
      const band = value as { go: number; warn: number };
      return t(field.kind === 'at-least' ? 'acceptance:defaultAtLeast' : 'acceptance:defaultAtMost', {
        go: format.number(band.go),
        warn: format.number(band.warn),
        unit,
      });
    }
    case 'models': {
      const models = value as string[];
      return models.length > 0
        ? t('acceptance:defaultText', { value: models.join(', ') })
        : t('acceptance:defaultNone');
    }
    case 'antennas': {
      const entries = Object.entries(value as Record<string, number>);
      return entries.length > 0
        ? t('acceptance:defaultText', {
            value: entries.map(([model, count]) => `${model} = ${count}`).join(', '),
          })
        : t('acceptance:defaultNone');
    }
    case 'text':
      return t('acceptance:defaultText', { value: String(value) });
    default:
      return t('acceptance:defaultNumber', { value: format.number(value as number), unit });
  }
}

function readField(field: ThresholdField, draft: ThresholdDraft, errors: ThresholdErrors): unknown {
  const shape = AcceptanceTableSchema.shape;
  const text = draft[field.field] ?? '';
  switch (field.kind) {
    case 'at-least':
    case 'at-most': {
      const bounds = (shape[field.field] as z.ZodObject<{ go: z.ZodNumber; warn: z.ZodNumber }>).shape.go;
      const go = readNumber(draft[`${field.field}.go`] ?? '', bounds);
      const warn = readNumber(draft[`${field.field}.warn`] ?? '', bounds);
      if (typeof go === 'string') errors[`${field.field}.go`] = go;
      if (typeof warn === 'string') errors[`${field.field}.warn`] = warn;
      return typeof go === 'number' && typeof warn === 'number' ? { go, warn } : undefined;
    }
    case 'number': {
      const value = readNumber(text, shape[field.field] as z.ZodNumber);
      if (typeof value === 'string') errors[field.field] = value;
      return typeof value === 'number' ? value : undefined;
    }
    case 'text':
      if (text.trim() === '') errors[field.field] = t('acceptance:valueEmpty');
      return text.trim();
    case 'models':
      return readLines(text).map((line, index) => {
        if (line.length > 100)
          errors[field.field] ??= t('acceptance:modelTooLong', { line: index + 1, most: 100 });
        return line;
      });
    case 'antennas': {
      const counts: Record<string, number> = {};
      const bounds = shape.antennasByModel.valueType;
      readLines(text).forEach((line, index) => {
        const at = line.lastIndexOf('=');
        const model = line.slice(0, Math.max(at, 0)).trim();
        const count = at < 0 ? t('acceptance:valueEmpty') : readNumber(line.slice(at + 1), bounds);
        if (!model || model.length > 100 || typeof count === 'string')
          errors[field.field] ??= t('acceptance:antennasLineInvalid', { line: index + 1 });
        else counts[model] = count;
      });
      return counts;
    }
  }
}

function readLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The number typed (a decimal comma is read as a point), or the message saying why it is refused. */
function readNumber(text: string, bounds: z.ZodNumber): number | string {
  const trimmed = text.trim().replace(',', '.').replace('−', '-');
  if (trimmed === '') return t('acceptance:valueEmpty');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) return t('acceptance:valueNotNumber');
  const value = Number(trimmed);
  const min = bounds.minValue ?? -Infinity;
  const max = bounds.maxValue ?? Infinity;
  const isWhole = bounds.isInt === true;
  if (value < min || value > max || (isWhole && !Number.isInteger(value)))
    return t(isWhole ? 'acceptance:valueWholeBetween' : 'acceptance:valueBetween', {
      min: format.number(min),
      max: format.number(max),
    });
  return value;
}
