// CPU time by process tree, and a process's resident memory, from Linux's /proc: what a benchmark spent where, so
// that a figure limited by this machine's cores can be told from one limited by the code.
import { readdir, readFile } from 'node:fs/promises';

/** /proc counts CPU time in clock ticks; Linux exports USER_HZ = 100 on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  parentPid: number;
  cpuSeconds: number;
}

async function readStat(pid: number): Promise<ProcessStat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // The command name is in parentheses and may hold spaces or parentheses itself: fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [parentPid, userTicks, systemTicks] = [fields[1], fields[11], fields[12]].map(Number);
  return { pid, parentPid: parentPid!, cpuSeconds: (userTicks! + systemTicks!) / TICKS_PER_SECOND };
}

/** User + system CPU seconds that `rootPid` and every process under it have used so far (all their threads). */
async function treeCpuSeconds(rootPid: number): Promise<number> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = (await Promise.all(pids.map(readStat))).filter((stat) => stat !== undefined);
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.parentPid, [...(children.get(stat.parentPid) ?? []), stat]);
  let total = stats.find((stat) => stat.pid === rootPid)?.cpuSeconds ?? 0;
  const pending = [...(children.get(rootPid) ?? [])];
  for (let next = pending.pop(); next; next = pending.pop()) {
    total += next.cpuSeconds;
    pending.push(...(children.get(next.pid) ?? []));
  }
  return total;
}

/** CPU seconds by name. */
export type CpuReading<Name extends string> = Record<Name, number>;

/** A process to read: alone, or with every process under it (a browser and its renderers, GPU and network). */
export interface CpuSource {
  pid: number;
  withDescendants: boolean;
}

/** Reads the CPU seconds each named source has used so far; subtract two readings for what a span of work cost. */
export async function readCpu<Name extends string>(
  sources: Record<Name, CpuSource>,
): Promise<CpuReading<Name>> {
  const names = Object.keys(sources) as Name[];
  const seconds = await Promise.all(
    names.map((name) =>
      sources[name].withDescendants
        ? treeCpuSeconds(sources[name].pid)
        : readStat(sources[name].pid).then((stat) => stat?.cpuSeconds ?? 0),
    ),
  );
  return Object.fromEntries(names.map((name, index) => [name, seconds[index]!])) as CpuReading<Name>;
}

/** What each process tree spent between two readings, in CPU seconds. */
export function cpuSpent<Name extends string>(
  before: CpuReading<Name>,
  after: CpuReading<Name>,
): CpuReading<Name> {
  const names = Object.keys(before) as Name[];
  return Object.fromEntries(names.map((name) => [name, after[name] - before[name]])) as CpuReading<Name>;
}

/** A process's resident set size in bytes (VmRSS), or undefined once it has exited. */
export async function readRssBytes(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kilobytes = status?.match(/^VmRSS:\s+(\d+) kB$/m)?.[1];
  return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
}
