import type { RiskConfirmation } from '../../electron/services/commands/risk-guards';
import { assessFleetChange } from '../../electron/services/fleet/fleet-risk';
import type { FleetChange, FleetTarget } from '../../electron/services/fleet';

/**
 * The confirmation a technician gives after reading the preview of `change` on `targets`: the distinct gateway
 * count, yes to the disruptions, and each lockout's typed text. For tests that are not about confirming.
 */
export function confirmedFor(change: FleetChange, targets: readonly FleetTarget[]): RiskConfirmation {
  const gatewayCount = new Set(targets.map((target) => target.gatewayId)).size;
  const { guards } = assessFleetChange(change, gatewayCount);
  return {
    gatewayCount,
    acknowledged: true,
    typed: Object.fromEntries(guards.map((guard) => [guard.id, guard.confirmationText])),
  };
}
