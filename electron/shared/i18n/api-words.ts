/**
 * The words for the API's enum values — event names, categories, severities, states, sources, account roles —
 * so no screen or report shows `GATEWAY_SHUTDOWN_ALARM` or `CUSTOMER_USER`. A value the server invents shows as
 * "Other (VALUE)" in the language, never as a bare identifier and never as an error. Each takes the translator
 * to write with (a report's language), the current language's `t` when left out.
 */

import { isMessageKey, t, type Translator } from './index';

type EnumKeyPrefix =
  | 'enums:linkType'
  | 'enums:networkState'
  | 'enums:event'
  | 'enums:eventType'
  | 'enums:severity'
  | 'enums:eventState'
  | 'enums:eventSource'
  | 'enums:role'
  | 'enums:deviceState';

/** `GATEWAY_LOW_BATTERY_ALARM` → `GatewayLowBatteryAlarm`; `DECODER_` → `Decoder`. */
function pascalCase(value: string): string {
  return value
    .toLowerCase()
    .split(/[_\s]+/)
    .filter((word) => word !== '')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

function wordsFor(prefix: EnumKeyPrefix, value: unknown, translate: Translator): string {
  const raw = typeof value === 'string' ? value : String(value);
  if (/^[A-Za-z_ ]{1,64}$/.test(raw)) {
    const key = `${prefix}${pascalCase(raw)}`;
    if (isMessageKey(key)) return translate(key);
  }
  return translate('enums:otherValue', { value: raw.slice(0, 64) });
}

/** "Battery low" for `GATEWAY_LOW_BATTERY_ALARM`. */
export function eventNameWords(name: unknown, translate: Translator = t): string {
  return wordsFor('enums:event', name, translate);
}

/** "Alarms", "Faults", "Events", "Offline". */
export function eventTypeWords(type: unknown, translate: Translator = t): string {
  return wordsFor('enums:eventType', type, translate);
}

/** "Critical", "Major", "Minor". */
export function severityWords(severity: unknown, translate: Translator = t): string {
  return wordsFor('enums:severity', severity, translate);
}

/** "Raised" or "Cleared". */
export function eventStateWords(state: unknown, translate: Translator = t): string {
  return wordsFor('enums:eventState', state, translate);
}

/** "Gateway", "Device", "Integration". */
export function eventSourceWords(source: unknown, translate: Translator = t): string {
  return wordsFor('enums:eventSource', source, translate);
}

/** "Customer user" for `CUSTOMER_USER`. */
export function roleWords(authority: unknown, translate: Translator = t): string {
  return wordsFor('enums:role', authority, translate);
}

/** "Ethernet", "Cellular", "Wi-Fi": a WAN link type as the API names it (`Cellular`, `WiFi`). */
export function linkTypeWords(type: unknown, translate: Translator = t): string {
  return wordsFor('enums:linkType', type, translate);
}

/** "in use", "available": the state of a cellular network in range (`Current`, `Available`, `Unknown`). */
export function networkStateWords(state: unknown, translate: Translator = t): string {
  return wordsFor('enums:networkState', state, translate);
}

/** "Online", "Offline", or "Other (…)" for a value the server invents: a gateway's status (`ONLINE`, `OFFLINE`). */
export function gatewayStatusWords(status: unknown, translate: Translator = t): string {
  if (status === 'ONLINE') return translate('gateways:statusOnline');
  if (status === 'OFFLINE') return translate('gateways:statusOffline');
  return translate('gateways:statusOther', { value: String(status).slice(0, 64) });
}

/**
 * "Active", "Inactive": a device's activity state. The API spec leaves the set open and names only ACTIVE; the
 * server (and the simulator) also send INACTIVE, so both have words and any other value shows as "Other (VALUE)".
 */
export function deviceStateWords(state: unknown, translate: Translator = t): string {
  return wordsFor('enums:deviceState', state, translate);
}
