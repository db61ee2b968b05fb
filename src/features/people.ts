// People and projects: sign-in, sessions, a person's own profile and password, projects and members.
import { Elysia } from "elysia";
import { sessionRoutes } from "../http/v2/sessions.ts";
import { projectRoutes } from "../http/v2/projects.ts";
import { profileRoutes } from "../http/v2/profile.ts";
import type { Feature } from "./feature.ts";

export const people: Feature = ({ s, replication }) => new Elysia().use(sessionRoutes(s)).use(profileRoutes(s)).use(projectRoutes(s, replication));
