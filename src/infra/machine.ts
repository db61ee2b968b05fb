// What the machine gives the process: memory (the container's limit when there is one, since a
// container sees the host's memory in os.totalmem() but is killed at its own limit) and cores.
// config.ts sizes the defaults that depend on the machine from these.
import { readFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";

/** The memory and cores of the machine, as far as this process may use them. */
export interface Machine {
  memoryBytes: number;
  cpus: number;
}

// cgroup v2, then v1; "max" (v2) or a huge number (v1) means no limit.
const CGROUP_LIMITS = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"];

function cgroupLimit(): number | null {
  for (const file of CGROUP_LIMITS) {
    try {
      const raw = readFileSync(file, "utf8").trim();
      if (/^\d+$/.test(raw)) return Number(raw);
    } catch {
      // Not this cgroup version, or not Linux.
    }
  }
  return null;
}

/** Reads the machine's memory limit and core count. */
export function machine(): Machine {
  const total = totalmem();
  const limit = cgroupLimit();
  return { memoryBytes: limit !== null && limit > 0 && limit < total ? limit : total, cpus: availableParallelism() };
}
