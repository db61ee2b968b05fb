// The dated versions of the read API. A published date never changes shape.

export interface VersionChange {
  id: string;
  kind: "response" | "request" | "behaviour";
  surfaces: ("rest" | "graphql")[];
  summary: string;
}

export interface VersionEntry {
  date: string;
  status: "current" | "supported" | "deprecated" | "sunset";
  changes: VersionChange[];
}

export const VERSIONS: VersionEntry[] = [
  {
    date: "2026-10-01",
    status: "current",
    changes: [{ id: "2026-10-01.first-release", kind: "behaviour", surfaces: ["rest", "graphql"], summary: "The first dated version of the read API." }],
  },
];

export const LATEST_VERSION = VERSIONS[VERSIONS.length - 1]!.date;
export const DEFAULT_VERSION = "2026-10-01";

export function isVersion(v: string): boolean {
  return VERSIONS.some((x) => x.date === v);
}
