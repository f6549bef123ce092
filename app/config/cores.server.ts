import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";

/**
 * How many server processes `server.ts` runs when WEB_CONCURRENCY is unset (issue 54; decision
 * 0057): in staging and production, one per core this process may use; elsewhere one. Node counts
 * the cores this process may be scheduled on (`os.availableParallelism()`, which sees
 * `--cpuset-cpus`) but not a container's CPU quota (`docker run --cpus=2` on a 16-core host still
 * shows 16): sixteen processes sharing two cores' time would each hold its own caches and
 * connections for nothing.
 */

/** WEB_CONCURRENCY's ceiling, and the default's. */
export const MAX_WEB_CONCURRENCY = 64;

/** A file's text, or undefined when it cannot be read (no such cgroup file on this system). */
export type ReadText = (path: string) => string | undefined;

export interface ServerProcesses {
  workers: number;
  /** What decided it, logged at start beside the number. */
  from: "WEB_CONCURRENCY" | "cgroup quota" | "cores" | `APP_ENV=${string}`;
}

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

const positive = (text: string | undefined) => {
  const value = Number(text?.trim());
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/**
 * The cgroup's CPU quota in cores (1.5 for `--cpus=1.5`), or undefined when there is none: cgroup
 * v2's `cpu.max` ("max 100000" is no quota), else v1's `cpu.cfs_quota_us` over `cpu.cfs_period_us`
 * (a quota of -1 is none). Inside a container /sys/fs/cgroup is the container's own cgroup.
 */
export function cgroupCpuQuota(read: ReadText = readText): number | undefined {
  const v2 = read("/sys/fs/cgroup/cpu.max");
  if (v2 !== undefined) {
    const [quota, period] = v2.trim().split(/\s+/);
    const cores = quota === "max" ? undefined : (positive(quota) ?? 0) / (positive(period) ?? Number.NaN);
    return cores !== undefined && cores > 0 ? cores : undefined;
  }
  for (const dir of ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"]) {
    const quota = read(`${dir}/cpu.cfs_quota_us`);
    if (quota === undefined) continue;
    const cores = (positive(quota) ?? 0) / (positive(read(`${dir}/cpu.cfs_period_us`)) ?? Number.NaN);
    return cores > 0 ? cores : undefined;
  }
  return undefined;
}

/**
 * The cores this process may use: the cgroup's quota rounded up (1.5 cores is 2 processes, the
 * second using the half left), never more than the cores it may be scheduled on, at least 1.
 */
export function usableCores(
  read: ReadText = readText,
  schedulable: number = availableParallelism(),
): { workers: number; from: "cgroup quota" | "cores" } {
  const cores = Math.max(1, Math.min(schedulable, MAX_WEB_CONCURRENCY));
  const quota = cgroupCpuQuota(read);
  if (quota !== undefined && Math.ceil(quota) <= cores) return { workers: Math.ceil(quota), from: "cgroup quota" };
  return { workers: cores, from: "cores" };
}

/**
 * The processes `server.ts` runs: WEB_CONCURRENCY when set; unset, one per usable core in staging
 * and production, and one in development and test, where a single process keeps `--inspect`,
 * `node --watch` restarts and the log simple, and tests measure or drive one process unless they
 * ask for more.
 */
export function serverProcesses(
  config: { webConcurrency: number | undefined; production: boolean; appEnv: string },
  cores: () => ReturnType<typeof usableCores> = usableCores,
): ServerProcesses {
  if (config.webConcurrency !== undefined) return { workers: config.webConcurrency, from: "WEB_CONCURRENCY" };
  if (!config.production) return { workers: 1, from: `APP_ENV=${config.appEnv}` };
  return cores();
}
