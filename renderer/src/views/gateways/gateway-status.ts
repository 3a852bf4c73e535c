import { t } from '../../lib/i18n';

/** A gateway's status (`ONLINE`, `OFFLINE`, or a value the server invents) in words of the current language. */
export function gatewayStatusWords(status: string): string {
  if (status === 'ONLINE') return t('gateways:statusOnline');
  if (status === 'OFFLINE') return t('gateways:statusOffline');
  return t('gateways:statusOther', { value: status.slice(0, 64) });
}

/** The badge tone of a status read live: green online, red offline, neutral for anything else. */
export function gatewayStatusTone(status: string): 'ok' | 'danger' | 'neutral' {
  if (status === 'ONLINE') return 'ok';
  if (status === 'OFFLINE') return 'danger';
  return 'neutral';
}
