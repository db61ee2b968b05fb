// The answer model of GET /v2/home (service.ts).
import { Type } from "@sinclair/typebox";
import { nullable, oneOf, record, Time, Uuid } from "../access/schema-kit.ts";
import { ProjectListItem } from "../projects/bodies.ts";

const EntryFacts = {
  id: Uuid,
  model: Type.String(),
  modelName: Type.String(),
  title: nullable(Type.String()),
  status: oneOf(["draft", "published", "changed"]),
  updatedAt: Time,
};

export const Home = record(
  {
    projects: Type.Array(ProjectListItem, { description: "Every project you can open, most recently opened first." }),
    canCreateProjects: Type.Boolean({ description: "Whether you may create projects (CAPA_PROJECT_CREATORS): show New project." }),
    project: nullable(
      record(
        { id: Uuid, name: Type.String(), slug: Type.String(), role: Type.String() },
        { description: "The project you are in (x-svc-project, else the one you opened last)." },
      ),
    ),
    recentEntries: Type.Array(record({ ...EntryFacts, editedAt: Time }), { description: "Entries you saved last, each once, newest first (up to 10)." }),
    scheduled: Type.Array(
      record({
        id: Uuid,
        action: oneOf(["publish", "unpublish"]),
        runAt: Time,
        batchId: Uuid,
        target: record({ type: Type.String(), id: Type.String(), model: nullable(Type.String()), title: nullable(Type.String()) }),
      }),
      { description: "Pending scheduled actions, soonest first (up to 10)." },
    ),
    failedDeliveries: nullable(
      record(
        {
          total: Type.Integer(),
          data: Type.Array(
            record({
              id: Uuid,
              endpointId: Uuid,
              url: nullable(Type.String()),
              eventId: Type.String(),
              eventType: Type.String(),
              attempts: Type.Integer(),
              failedAt: nullable(Time),
              note: nullable(Type.String()),
              lastStatus: nullable(Type.Integer()),
            }),
          ),
        },
        { description: "Failed deliveries not sent again since (newest 10, and how many); null for roles that do not see webhooks." },
      ),
    ),
    firstSteps: nullable(
      record(
        { model: Type.Boolean(), entry: Type.Boolean(), key: Type.Boolean(), done: Type.Boolean() },
        { description: "Which of a new project's first steps are done: a model, an entry, an API key." },
      ),
    ),
  },
  { $id: "Home" },
);
