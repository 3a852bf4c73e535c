import { t } from '../../shared/i18n';
import type { GatewayCommander } from './types';

/** A read of a gateway that has not answered for this long is said to wait for the gateway (it may restart). */
export const UNANSWERED_READ_NOTICE_MS = 3_000;

/** The percent an answer gives in `progress` (0–100), when it gives one. */
export function progressPercent(value: unknown): number | undefined {
  const progress = (value as { progress?: unknown } | null)?.progress;
  return typeof progress === 'number' && Number.isFinite(progress)
    ? Math.max(0, Math.min(100, progress))
    : undefined;
}

/** An install's progress in words: its phase ("installing", else "in progress") and its percent: "installing 40 %". */
export function describeInstallProgress(status: unknown): string {
  const phase = (status as { phase?: unknown } | null)?.phase;
  const percent = progressPercent(status);
  const words = typeof phase === 'string' ? phase : t('wizards:installPhaseInProgress');
  return percent === undefined
    ? words
    : t('wizards:installPhasePercent', { phase: words, percent: Math.round(percent) });
}

/** One package an upgrade moves: the version installed when it was asked for, and the one offered. */
export interface PackageMove {
  name: string;
  from: string;
  to: string;
}

/** "kona-pkt-forwarder 4.2.1 → 4.3.0", the words of each package as it was asked for. */
export function describeMoves(packages: readonly PackageMove[]): string {
  return packages.map((item) => `${item.name} ${item.from} → ${item.to}`).join(', ');
}

/**
 * The installed version of each package the gateway names. getSoftwareVersions has no shape in the spec: any
 * `{ name, ver | version }` objects in its answer (or in an array property of it) count; the upgradable list,
 * which has a shape, fills in a package the versions answer leaves out.
 */
export async function readInstalledVersions(
  commander: GatewayCommander,
  gatewayId: string,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  const answer = await commander.command(gatewayId, 'getSoftwareVersions', {}, options);
  const lists = Array.isArray(answer)
    ? [answer]
    : typeof answer === 'object' && answer !== null
      ? Object.values(answer).filter(Array.isArray)
      : [];
  for (const list of lists)
    for (const item of list as unknown[]) {
      const { name, ver, version } = (item ?? {}) as { name?: unknown; ver?: unknown; version?: unknown };
      const value = typeof ver === 'string' ? ver : typeof version === 'string' ? version : undefined;
      if (typeof name === 'string' && value !== undefined) versions.set(name, value);
    }
  const upgradable = await commander.command(gatewayId, 'getUpgradableSoftware', {}, options);
  for (const item of upgradable) if (!versions.has(item.name)) versions.set(item.name, item.ver);
  return versions;
}

/** Each asked-for package sorted by what its installed version shows: moved, stayed, or not read. */
export function judgeMoves(packages: readonly PackageMove[], installed: Map<string, string>) {
  const moved: string[] = [];
  const stayed: string[] = [];
  const unread: string[] = [];
  const after: Record<string, string> = {};
  for (const item of packages) {
    const version = installed.get(item.name);
    if (version === undefined) unread.push(item.name);
    else if (version === item.from) stayed.push(`${item.name} ${version}`);
    else moved.push(`${item.name} ${item.from} → ${version}`);
    if (version !== undefined) after[item.name] = version;
  }
  return { moved, stayed, unread, after };
}
