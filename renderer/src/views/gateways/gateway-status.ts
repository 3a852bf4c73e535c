/** A gateway's status in words of the current language: the one helper main and the report use too. */
export { gatewayStatusWords } from '../../../../electron/shared/i18n/api-words';

/** The badge tone of a status read live: green online, red offline, neutral for anything else. */
export function gatewayStatusTone(status: string): 'ok' | 'danger' | 'neutral' {
  if (status === 'ONLINE') return 'ok';
  if (status === 'OFFLINE') return 'danger';
  return 'neutral';
}
