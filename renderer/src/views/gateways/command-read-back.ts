import { COMMAND_NAMES, gatewayCommands, type CommandName } from '../../../../electron/shared/api/commands';

/** The read that shows what a change command left, where its name does not say it (`setX` → `getX` does). */
const READ_BACK: Partial<Record<CommandName, CommandName>> = {
  addWmApn: 'getWmApns',
  updateWmApn: 'getWmApns',
  deleteWmApn: 'getWmApns',
  setPreferredFallbackConnectivityType: 'getConnectivityTypes',
  setWmPreferredNetwork: 'getWmNetworkInfo',
  createBackup: 'getBackups',
  restoreBackup: 'getBackups',
  upgradeSoftware: 'getLastInstallUpgradeStatus',
  installSoftware: 'getLastInstallUpgradeStatus',
  resetRadioStatisticsCounters: 'getRadioStatistics',
};

function isCommandName(name: string): name is CommandName {
  return (COMMAND_NAMES as readonly string[]).includes(name);
}

/**
 * The read command whose answer shows whether `command` took effect (after its connection dropped): its own pair,
 * else `getX` for `setX`, else the gateway's info. Always a read that takes no body, so it is sent as it is.
 */
export function readBackCommand(command: CommandName): CommandName {
  const byName = command.startsWith('set') ? `get${command.slice(3)}` : '';
  const paired = READ_BACK[command] ?? (isCommandName(byName) ? byName : undefined);
  if (paired && gatewayCommands[paired].risk === 'read' && gatewayCommands[paired].bodyKind === 'empty')
    return paired;
  return 'getGatewayInfo';
}
