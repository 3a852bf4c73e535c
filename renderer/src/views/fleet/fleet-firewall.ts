import type { FleetFirewallPatch } from '../../../../electron/shared/ipc/domains/fleet';
import { checkWholeNumber, INTEGER_SETTING_MAX, readWholeNumber } from '../../lib/components/field-checks';
import { t } from '../../lib/i18n';
import { checkFilterList, parseFilterList } from '../wizards/firewall-filters';

/** A switch of the fleet firewall form: leave each gateway's value, or set it on or off everywhere. */
export type SwitchChoice = 'keep' | 'on' | 'off';

/**
 * What the technician set on the fleet firewall form: each switch and limit is "keep" (empty) unless set, so a
 * job changes only what was chosen and every other setting stays as each gateway has it. The filters are replaced
 * only from the expert JSON, and only when asked for.
 */
export interface FirewallDraft {
  enabled: SwitchChoice;
  dosEnabled: SwitchChoice;
  perMinLimit: string;
  burstLimit: string;
  sshEnabled: SwitchChoice;
  pingEnabled: SwitchChoice;
  pingLimitEnabled: SwitchChoice;
  pingPerMinLimit: string;
  pingBurstLimit: string;
  replaceFilters: boolean;
  filtersText: string;
}

/** A form that changes nothing yet (the default draft). */
export function emptyFirewallDraft(): FirewallDraft {
  return {
    enabled: 'keep',
    dosEnabled: 'keep',
    perMinLimit: '',
    burstLimit: '',
    sshEnabled: 'keep',
    pingEnabled: 'keep',
    pingLimitEnabled: 'keep',
    pingPerMinLimit: '',
    pingBurstLimit: '',
    replaceFilters: false,
    filtersText: '[]',
  };
}

/** The limits' rule, as the firewall wizard has it: a whole number the gateway can store; empty keeps. */
const LIMIT_RULE = { min: 0, max: INTEGER_SETTING_MAX, isRequired: false } as const;

/** The limit fields of the draft. */
export type LimitField = 'perMinLimit' | 'burstLimit' | 'pingPerMinLimit' | 'pingBurstLimit';

/** Each field's problem in words (null when fine), as the fields show them. */
export function firewallDraftErrors(draft: FirewallDraft): Record<LimitField | 'filters', string | null> {
  return {
    perMinLimit: checkWholeNumber(draft.perMinLimit, LIMIT_RULE),
    burstLimit: checkWholeNumber(draft.burstLimit, LIMIT_RULE),
    pingPerMinLimit: checkWholeNumber(draft.pingPerMinLimit, LIMIT_RULE),
    pingBurstLimit: checkWholeNumber(draft.pingBurstLimit, LIMIT_RULE),
    filters: draft.replaceFilters ? checkFilterList(draft.filtersText) : null,
  };
}

function switchValue(choice: SwitchChoice): boolean | undefined {
  return choice === 'keep' ? undefined : choice === 'on';
}

function limitValue(text: string): number | undefined {
  return text.trim() === '' ? undefined : readWholeNumber(text);
}

/** Drops the keys whose value is undefined, and the object itself when nothing is left. */
function defined<Value extends object>(value: Value): Value | undefined {
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  return entries.length === 0 ? undefined : (Object.fromEntries(entries) as Value);
}

/**
 * The patch the draft sets (only what was chosen), or a problem in words: a field to correct, or nothing chosen
 * at all (a job that would change nothing is not started).
 */
export function buildFirewallPatch(
  draft: FirewallDraft,
): { patch: FleetFirewallPatch } | { problem: string } {
  const wrong = Object.values(firewallDraftErrors(draft)).filter((error) => error !== null).length;
  if (wrong > 0) return { problem: t('wizards:fieldsNeedCorrecting', { count: wrong }) };
  const limit = defined({
    enabled: switchValue(draft.pingLimitEnabled),
    pingPerMinLimit: limitValue(draft.pingPerMinLimit),
    pingBurstLimit: limitValue(draft.pingBurstLimit),
  });
  const patch = defined<FleetFirewallPatch>({
    enabled: switchValue(draft.enabled),
    doSPrevention: defined({
      enabled: switchValue(draft.dosEnabled),
      perMinLimit: limitValue(draft.perMinLimit),
      burstLimit: limitValue(draft.burstLimit),
    }),
    ssh: draft.sshEnabled === 'keep' ? undefined : { enabled: draft.sshEnabled === 'on' },
    ping: defined({ enabled: switchValue(draft.pingEnabled), limit }),
    filters: draft.replaceFilters ? parseFilterList(draft.filtersText) : undefined,
  });
  return patch ? { patch } : { problem: t('fleet:firewallNothingChosen') };
}
