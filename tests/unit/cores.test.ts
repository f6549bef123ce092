import { describe, expect, it } from "vitest";
import { cgroupCpuQuota, serverProcesses, usableCores, type ReadText } from "~/config/cores.server";

/** A /sys that holds these files and no other. */
const sys =
  (files: Record<string, string>): ReadText =>
  (path) =>
    files[path];

const V2 = "/sys/fs/cgroup/cpu.max";
const V1 = "/sys/fs/cgroup/cpu";

describe("the cores a container may use", () => {
  it("reads cgroup v2's cpu.max: a quota in cores, none for max", () => {
    expect(cgroupCpuQuota(sys({ [V2]: "200000 100000\n" }))).toBe(2);
    expect(cgroupCpuQuota(sys({ [V2]: "150000 100000\n" }))).toBe(1.5);
    expect(cgroupCpuQuota(sys({ [V2]: "max 100000\n" }))).toBeUndefined();
  });

  it("reads cgroup v1's quota over its period, -1 being none, in either of v1's folders", () => {
    const v1 = (dir: string, quota: string) =>
      sys({ [`${dir}/cpu.cfs_quota_us`]: `${quota}\n`, [`${dir}/cpu.cfs_period_us`]: "100000\n" });
    expect(cgroupCpuQuota(v1(V1, "300000"))).toBe(3);
    expect(cgroupCpuQuota(v1("/sys/fs/cgroup/cpu,cpuacct", "50000"))).toBe(0.5);
    expect(cgroupCpuQuota(v1(V1, "-1"))).toBeUndefined();
  });

  it("finds no quota where there is no cgroup file, or one it cannot read", () => {
    expect(cgroupCpuQuota(sys({}))).toBeUndefined();
    expect(cgroupCpuQuota(sys({ [V2]: "" }))).toBeUndefined();
    expect(cgroupCpuQuota(sys({ [V2]: "lots 100000" }))).toBeUndefined();
    expect(cgroupCpuQuota(sys({ [`${V1}/cpu.cfs_quota_us`]: "200000" }))).toBeUndefined();
  });

  it("rounds a quota up, never past the cores the process may be scheduled on, never under 1", () => {
    expect(usableCores(sys({ [V2]: "200000 100000" }), 16)).toEqual({ workers: 2, from: "cgroup quota" });
    expect(usableCores(sys({ [V2]: "150000 100000" }), 16)).toEqual({ workers: 2, from: "cgroup quota" });
    expect(usableCores(sys({ [V2]: "10000 100000" }), 16)).toEqual({ workers: 1, from: "cgroup quota" });
    expect(usableCores(sys({ [V2]: "800000 100000" }), 4)).toEqual({ workers: 4, from: "cores" });
    expect(usableCores(sys({ [V2]: "max 100000" }), 4)).toEqual({ workers: 4, from: "cores" });
    expect(usableCores(sys({}), 0)).toEqual({ workers: 1, from: "cores" });
    expect(usableCores(sys({}), 256)).toEqual({ workers: 64, from: "cores" });
  });
});

describe("the server's processes", () => {
  const fourCores = () => ({ workers: 4, from: "cores" as const });
  const production = { webConcurrency: undefined, production: true, appEnv: "production" };

  it("are one per usable core in staging and production when WEB_CONCURRENCY is unset", () => {
    expect(serverProcesses(production, fourCores)).toEqual({ workers: 4, from: "cores" });
    expect(serverProcesses({ ...production, appEnv: "staging" }, fourCores)).toEqual({ workers: 4, from: "cores" });
  });

  it("are what WEB_CONCURRENCY says, whatever the cores", () => {
    expect(serverProcesses({ ...production, webConcurrency: 1 }, fourCores)).toEqual({
      workers: 1,
      from: "WEB_CONCURRENCY",
    });
    expect(serverProcesses({ webConcurrency: 3, production: false, appEnv: "development" }, fourCores)).toEqual({
      workers: 3,
      from: "WEB_CONCURRENCY",
    });
  });

  it("are one in development and test unless asked for more", () => {
    const dev = { webConcurrency: undefined, production: false };
    expect(serverProcesses({ ...dev, appEnv: "development" }, fourCores)).toEqual({
      workers: 1,
      from: "APP_ENV=development",
    });
    expect(serverProcesses({ ...dev, appEnv: "test" }, fourCores)).toEqual({ workers: 1, from: "APP_ENV=test" });
  });
});
