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

/** `rootPid` and every process under it that is still running. */
async function readProcessTree(rootPid: number): Promise<ProcessStat[]> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = (await Promise.all(pids.map(readStat))).filter((stat) => stat !== undefined);
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.parentPid, [...(children.get(stat.parentPid) ?? []), stat]);
  const tree = stats.filter((stat) => stat.pid === rootPid);
  const pending = [...(children.get(rootPid) ?? [])];
  for (let next = pending.pop(); next; next = pending.pop()) {
    tree.push(next);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/** User + system CPU seconds that `rootPid` and every process under it have used so far (all their threads). */
async function treeCpuSeconds(rootPid: number): Promise<number> {
  return (await readProcessTree(rootPid)).reduce((sum, stat) => sum + stat.cpuSeconds, 0);
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

/** How long one thread has run on a core, and waited runnable for one (preempted, or woken and not yet run). */
export interface ThreadSchedule {
  runningMs: number;
  waitingMs: number;
}

/**
 * A thread's schedule so far, from Linux's /proc/<pid>/task/<tid>/schedstat (nanoseconds on a core, nanoseconds
 * waiting on a run queue); the main thread by default. Undefined once it has exited.
 */
export async function readThreadSchedule(pid: number, tid = pid): Promise<ThreadSchedule | undefined> {
  const text = await readFile(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').catch(() => undefined);
  const [running, waiting] = text?.split(' ').map(Number) ?? [];
  if (running === undefined || waiting === undefined) return undefined;
  return { runningMs: running / 1e6, waitingMs: waiting / 1e6 };
}

/** The main thread's schedule of every renderer process under a browser, by pid (a page's JavaScript runs there). */
export async function readRendererSchedules(browserPid: number): Promise<Map<number, ThreadSchedule>> {
  const schedules = new Map<number, ThreadSchedule>();
  for (const { pid } of await readProcessTree(browserPid)) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!commandLine.includes('--type=renderer')) continue;
    const schedule = await readThreadSchedule(pid);
    if (schedule) schedules.set(pid, schedule);
  }
  return schedules;
}

/** Where a thread's wall time went over a span, as shares of it: on a core, waiting for one, or asleep. */
export interface TimeShares {
  running: number;
  waiting: number;
  idle: number;
}

/** The shares of `elapsedMs` a thread spent running, waiting for a core and asleep, between two readings. */
export function timeShares(before: ThreadSchedule, after: ThreadSchedule, elapsedMs: number): TimeShares {
  const running = (after.runningMs - before.runningMs) / elapsedMs;
  const waiting = (after.waitingMs - before.waitingMs) / elapsedMs;
  return { running, waiting, idle: Math.max(0, 1 - running - waiting) };
}

/**
 * timeShares of the page's main thread: of the renderers read before and after a span, the one that ran the most
 * in it (a flood keeps the page's renderer far busier than any other).
 */
export function pageTimeShares(
  before: Map<number, ThreadSchedule>,
  after: Map<number, ThreadSchedule>,
  elapsedMs: number,
): TimeShares {
  let busiest: TimeShares = { running: 0, waiting: 0, idle: 1 };
  for (const [pid, schedule] of after) {
    const start = before.get(pid);
    if (!start) continue;
    const shares = timeShares(start, schedule, elapsedMs);
    if (shares.running > busiest.running) busiest = shares;
  }
  return busiest;
}

/** The main threads of a browser's renderers and of named processes at one moment, for timeSpent. */
export interface ScheduleReading<Name extends string> {
  at: number;
  renderers: Map<number, ThreadSchedule>;
  threads: Record<Name, ThreadSchedule>;
}

/** Reads the main thread of every renderer under `browserPid` and of each process named in `processes`. */
export async function readSchedules<Name extends string>(
  browserPid: number,
  processes: Record<Name, number>,
): Promise<ScheduleReading<Name>> {
  const at = performance.now();
  const names = Object.keys(processes) as Name[];
  const schedules = await Promise.all(names.map((name) => readThreadSchedule(processes[name])));
  const gone = { runningMs: 0, waitingMs: 0 };
  return {
    at,
    renderers: await readRendererSchedules(browserPid),
    threads: Object.fromEntries(names.map((name, index) => [name, schedules[index] ?? gone])) as Record<
      Name,
      ThreadSchedule
    >,
  };
}

/** Where the span between two readings went, as timeShares: for the page's main thread and each named thread. */
export function timeSpent<Name extends string>(
  before: ScheduleReading<Name>,
  after: ScheduleReading<Name>,
): Record<Name | 'page', TimeShares> {
  const spanMs = after.at - before.at;
  const names = Object.keys(before.threads) as Name[];
  const threads = Object.fromEntries(
    names.map((name) => [name, timeShares(before.threads[name], after.threads[name], spanMs)]),
  ) as Record<Name, TimeShares>;
  return { ...threads, page: pageTimeShares(before.renderers, after.renderers, spanMs) };
}
