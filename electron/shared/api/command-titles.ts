import type { CommandName } from './commands';

/**
 * What each gateway command does, in the technician's words: the console lists commands by these titles, the API
 * name stays beside them (and searchable) for anyone reading the spec or a log. One title per command: the Record
 * type makes a new command without a title a type error.
 */
export const COMMAND_TITLES: Record<CommandName, string> = {
  ping: 'Ping a host',
  reboot: 'Restart the gateway',
  getAntennasCount: 'Count the antennas',
  getPublicKey: 'Read the public key',
  reverseSsh: 'Open a reverse SSH tunnel',
  stopReverseSsh: 'Close the reverse SSH tunnels',
  getGpsCoordinates: 'Read the GPS position',
  getGatewayInfo: 'Read interfaces and modem identity',
  getRadioStatistics: 'Read radio packet counters',
  resetRadioStatisticsCounters: 'Reset radio packet counters',
  getSpectralScanParams: 'Read spectral scan settings',
  getSpectralScanProgress: 'Read spectral scan progress',
  getSpectralScanResults: 'Read spectral scan results',
  getBackups: 'List backups',
  createBackup: 'Create a backup',
  restoreBackup: 'Restore a backup',
  getSoftwareVersions: 'Read software versions',
  getUpgradableSoftware: 'List upgradable packages',
  getInstallableSoftware: 'List installable packages',
  upgradeSoftware: 'Upgrade software',
  installSoftware: 'Install a package',
  getLastInstallUpgradeStatus: 'Read the last install or upgrade outcome',
  getBspStatus: 'Read the BSP status',
  getWmDeviceInformation: 'Read the modem identity',
  getWmHomeNetworkBranch: 'Read the home network',
  getWmRfInformation: 'Read the cellular signal',
  getWmNetworkInfo: 'List cellular networks in range',
  setWmPreferredNetwork: 'Choose the cellular network',
  getWmActiveProfileParameters: 'Read the active data profile',
  getWmCallStatistics: 'Read the data call status',
  getWmApns: 'List APNs',
  getWmPDP_Profiles: 'Read PDP profiles',
  modifyWmPDP_Profiles: 'Change PDP profiles',
  addWmApn: 'Add an APN',
  updateWmApn: 'Change an APN',
  deleteWmApn: 'Delete an APN',
  getWmStatusApn: 'Read APN and SIM status',
  getConnectivityTypes: 'List WAN links',
  setPreferredFallbackConnectivityType: 'Choose preferred and fallback WAN links',
  setPreferredPingIpAddress: 'Set the WAN check address',
  getPreferredPingIpAddress: 'Read the WAN check address',
  getFirewallConfiguration: 'Read the firewall settings',
  setFirewallConfiguration: 'Replace the firewall settings',
};

/**
 * Whether a command matches what was typed in the console's filter: by its title, its API name or its summary,
 * ignoring case, so `pdp`, `getWmPDP` and "profiles" all find "Read PDP profiles".
 */
export function matchesCommandFilter(
  command: { name: string; summary: string },
  title: string,
  filter: string,
): boolean {
  const wanted = filter.trim().toLowerCase();
  if (wanted === '') return true;
  return [title, command.name, command.summary].some((text) => text.toLowerCase().includes(wanted));
}
