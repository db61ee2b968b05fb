// The home screen in one request (GET /v2/home) and making a project (POST /v2/projects).
import type { CreateProjectBody } from "../../../src/shared/bodies.ts";
import type { CreatedProject, HomeAnswer } from "../../../src/shared/people.ts";
import { call } from "./client.ts";

export type { HomeAnswer, HomeEntry } from "../../../src/shared/people.ts";

export const homeApi = {
  get: () => call<HomeAnswer>("GET", "/v2/home"),
  /** Makes a project; the person becomes its owner. */
  createProject: (name: string) => call<CreatedProject>("POST", "/v2/projects", { body: { name } satisfies CreateProjectBody }),
};

/** The query key of the home screen, per project. */
export const homeKey = (project: string | null) => ["home", project] as const;
