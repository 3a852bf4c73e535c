import type { MessageKey } from '../../../../electron/shared/i18n';
import { t } from '../../lib/i18n';
import type {
  AcceptanceCard,
  CardVerdict,
  FixTarget,
  ItemVerdict,
} from '../../../../electron/shared/visit/acceptance-card';

/** The badge tone of a verdict. */
export function toneOf(verdict: ItemVerdict | CardVerdict): 'ok' | 'warn' | 'danger' | 'neutral' {
  if (verdict === 'go') return 'ok';
  if (verdict === 'no-go') return 'danger';
  if (verdict === 'not-applicable') return 'neutral';
  return 'warn';
}

/** Where a fix's button goes, inside the gateway's page, and the message it says. */
export const FIX_LINKS: Record<FixTarget, { path: string[]; label: MessageKey }> = {
  connectivity: { path: ['wizard', 'connectivity'], label: 'acceptance:openConnectivity' },
  cellular: { path: ['wizard', 'cellular'], label: 'acceptance:openCellular' },
  firewall: { path: ['wizard', 'firewall'], label: 'acceptance:openFirewall' },
  backups: { path: ['wizard', 'backups'], label: 'acceptance:openBackups' },
  software: { path: ['wizard', 'software'], label: 'acceptance:openSoftware' },
  diagnostics: { path: ['diagnostics'], label: 'acceptance:openDiagnostics' },
};

/**
 * The card a re-run is compared with: the gateway's first finished card of the visit before `latest` (what was
 * found before the fixes), or undefined when this is the first.
 */
export function earlierCardOf(
  history: readonly AcceptanceCard[],
  latest: AcceptanceCard,
): AcceptanceCard | undefined {
  return history.find(
    (card) =>
      card !== latest &&
      card.gatewayId === latest.gatewayId &&
      card.takenAt < latest.takenAt &&
      card.verdict !== 'not-finished',
  );
}

/** "1 min 5 s" or "42 s" left until `endsAt`. */
export function describeSecondsLeft(endsAt: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((endsAt - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes > 0
    ? t('acceptance:minutesSecondsLeft', { minutes, seconds: seconds % 60 })
    : t('acceptance:secondsLeft', { seconds });
}

/** A gateway as the check takes it: its id, and its name and model when its record is known. */
export function targetOf(
  gatewayId: string,
  gateway: { name: string; gatewayModelName?: string | null } | null | undefined,
): { gatewayId: string; name?: string; model?: string } {
  return {
    gatewayId,
    ...(gateway ? { name: gateway.name } : {}),
    ...(gateway?.gatewayModelName ? { model: gateway.gatewayModelName } : {}),
  };
}
