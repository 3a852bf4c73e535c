import type { Gateway } from '../../../../electron/shared/api/gateway';
import { GATEWAY_SORT_FIELDS } from '../../../../electron/shared/api/gateway';
import { format } from '../../../../electron/shared/format';
import { formatMac } from '../../../../electron/shared/mac';
import { t, type MessageKey } from '../../lib/i18n';
import type { TableColumn } from '../../lib/components/data-table';
import { gatewayStatusWords } from './gateway-status';

/** A column of the gateway list: its heading's message, and whether the column chooser may hide it. */
interface GatewayColumn {
  id: string;
  heading: MessageKey;
  /** The API's sort field, when the server can order the list by this column. */
  sortKey?: (typeof GATEWAY_SORT_FIELDS)[number];
  width: string;
  text: (row: Gateway) => string;
  /** Shown unless the technician hides it (the columns a technician scans for are always shown). */
  isOptional?: boolean;
  /** The record field behind the column, shown as a hint in the column chooser. */
  apiField?: keyof Gateway;
}

function yesNo(value: boolean | null | undefined): string {
  if (value === true) return t('common:yes');
  if (value === false) return t('common:no');
  return '—';
}

// Name, MAC, model, status and last seen are what a technician scans for; the record's dates and the API's flags
// are behind the column chooser. Every cell wraps onto the row's second line rather than being cut, and the
// smallest widths of all ten columns fit beside the navigation at 1280 px.
const COLUMNS: readonly GatewayColumn[] = [
  {
    id: 'name',
    heading: 'gateways:columnName',
    sortKey: 'NAME',
    width: 'minmax(4.5rem, 2fr)',
    text: (row) => row.name,
  },
  {
    id: 'mac',
    heading: 'gateways:columnMac',
    sortKey: 'GATEWAY_MAC',
    width: 'minmax(11.5rem, 12.5rem)',
    text: (row) => formatMac(row.gatewayMac),
  },
  {
    id: 'model',
    heading: 'gateways:columnModel',
    sortKey: 'GATEWAY_MODEL_NAME',
    width: 'minmax(5.5rem, 1.5fr)',
    text: (row) => row.gatewayModelName ?? '—',
  },
  {
    id: 'status',
    heading: 'gateways:columnStatus',
    sortKey: 'STATUS',
    width: 'minmax(6.5rem, 1fr)',
    text: (row) => gatewayStatusWords(row.status),
  },
  {
    id: 'lastSeen',
    heading: 'gateways:columnLastSeen',
    width: 'minmax(6.5rem, 1fr)',
    text: (row) => (row.lastSeenTime === undefined ? t('common:unknown') : format.dateTime(row.lastSeenTime)),
  },
  {
    id: 'created',
    heading: 'gateways:columnCreated',
    sortKey: 'CREATED_TIME',
    width: 'minmax(5.5rem, 1fr)',
    // The day is what tells an old gateway from a new one; the time would take a third line.
    text: (row) => format.date(row.createdTime),
    isOptional: true,
    apiField: 'createdTime',
  },
  {
    id: 'public',
    heading: 'gateways:columnPublic',
    sortKey: 'IS_PUBLIC',
    width: 'minmax(5rem, 0.7fr)',
    text: (row) => yesNo(row.isPublic),
    isOptional: true,
    apiField: 'isPublic',
  },
  {
    id: 'logging',
    heading: 'gateways:columnLogging',
    sortKey: 'IS_LOGGING_ENABLED',
    width: 'minmax(5rem, 0.7fr)',
    text: (row) => yesNo(row.isLoggingEnabled),
    isOptional: true,
    apiField: 'isLoggingEnabled',
  },
  {
    id: 'udp',
    heading: 'gateways:columnUdp',
    sortKey: 'IS_UDP_ALLOWED',
    width: 'minmax(5rem, 0.7fr)',
    text: (row) => yesNo(row.isUdpAllowed),
    isOptional: true,
    apiField: 'isUdpAllowed',
  },
  {
    id: 'not-mqtts',
    heading: 'gateways:columnNotMqtts',
    sortKey: 'IS_NOT_MQTTS_ALLOWED',
    width: 'minmax(5rem, 0.7fr)',
    text: (row) => yesNo(row.isNotMqttsAllowed),
    isOptional: true,
    apiField: 'isNotMqttsAllowed',
  },
];

// Every sort field of the API has its column (a check that the table and the spec agree).
if (COLUMNS.filter((column) => column.sortKey).length !== GATEWAY_SORT_FIELDS.length) {
  throw new Error('Each gateway sort field needs a column');
}

/** A column the chooser can show or hide: its id, its heading in words and the API field behind it. */
export interface OptionalColumn {
  id: string;
  label: string;
  apiField: string;
}

/** The columns the chooser offers, in the current language (call inside markup or `$derived`). */
export function optionalColumns(): OptionalColumn[] {
  return COLUMNS.filter((column) => column.isOptional).map((column) => ({
    id: column.id,
    label: t(column.heading),
    apiField: column.apiField ?? column.id,
  }));
}

/** The table's columns in the current language: the fixed ones and the optional ones in `shown`. */
export function gatewayTableColumns(shown: ReadonlySet<string>): TableColumn<Gateway>[] {
  return COLUMNS.filter((column) => !column.isOptional || shown.has(column.id)).map((column) => ({
    id: column.id,
    label: t(column.heading),
    width: column.width,
    text: column.text,
    ...(column.sortKey ? { sortKey: column.sortKey } : {}),
  }));
}

/** Where the chosen optional columns are remembered. */
export const SHOWN_COLUMNS_KEY = 'fieldkit.gateways.shownColumns';

/** The optional columns the technician chose to show (none until they choose; an unreadable value is none). */
export function readShownColumns(storage: Pick<Storage, 'getItem'> | undefined): Set<string> {
  const known = new Set(COLUMNS.filter((column) => column.isOptional).map((column) => column.id));
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(SHOWN_COLUMNS_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return new Set();
    return new Set(parsed.filter((id): id is string => typeof id === 'string' && known.has(id)));
  } catch {
    return new Set();
  }
}

/** Remembers the chosen optional columns (a storage that refuses, full or private, is ignored). */
export function writeShownColumns(
  storage: Pick<Storage, 'setItem'> | undefined,
  shown: ReadonlySet<string>,
): void {
  try {
    storage?.setItem(SHOWN_COLUMNS_KEY, JSON.stringify([...shown]));
  } catch {
    // Not remembered: the choice holds until the list is left.
  }
}
