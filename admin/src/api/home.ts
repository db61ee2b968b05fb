// The home screen in one request (GET /v2/home) and making a project (POST /v2/projects).
import { call } from "./client.ts";
import type { EntryStatus, Project } from "./types.ts";

/** An entry as the home screen lists it. */
export interface HomeEntry {
  id: string;
  model: string;
  modelName: string;
  title: string | null;
  status: EntryStatus;
  updatedAt: string;
  editedAt?: string;
}

/** What GET /v2/home answers. */
export interface HomeAnswer {
  projects: Project[];
  canCreateProjects: boolean;
  project: { id: string; name: string; slug: string; role: string } | null;
  recentEntries: HomeEntry[];
  scheduled: {
    id: string;
    action: "publish" | "unpublish";
    runAt: string;
    batchId: string;
    target: { type: string; id: string; model: string | null; title: string | null };
  }[];
  failedDeliveries: {
    total: number;
    data: { id: string; endpointId: string; url: string | null; eventType: string; attempts: number; failedAt: string | null; lastStatus: number | null }[];
  } | null;
  firstSteps: { model: boolean; entry: boolean; key: boolean; done: boolean } | null;
}

export const homeApi = {
  get: () => call<HomeAnswer>("GET", "/v2/home"),
  /** Makes a project; the person becomes its owner. */
  createProject: (name: string) => call<Project>("POST", "/v2/projects", { body: { name } }),
};

/** The query key of the home screen, per project. */
export const homeKey = (project: string | null) => ["home", project] as const;
