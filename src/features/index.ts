// Every feature of the app, in the order their routes are added (static paths such as
// /v2/model-instances/bulk-publish before the `:id` routes beside them).
import { admin } from "./admin.ts";
import { bulk } from "./bulk.ts";
import { edge } from "./edge.ts";
import { entries } from "./entries.ts";
import type { Feature } from "./feature.ts";
import { fieldChanges } from "./field-changes.ts";
import { graphql } from "./graphql.ts";
import { keys } from "./keys.ts";
import { layouts } from "./layouts.ts";
import { media } from "./media.ts";
import { legacy } from "./legacy.ts";
import { locales } from "./locales.ts";
import { models } from "./models.ts";
import { openapi } from "./openapi.ts";
import { operations } from "./operations.ts";
import { people } from "./people.ts";
import { reads } from "./reads.ts";
import { scheduling } from "./scheduling.ts";
import { shell } from "./shell.ts";
import { webhooks } from "./webhooks.ts";
import { workspaces } from "./workspaces.ts";

export const FEATURES: Feature[] = [
  operations,
  people,
  models,
  locales,
  layouts,
  fieldChanges,
  workspaces,
  media,
  bulk,
  scheduling,
  entries,
  shell,
  keys,
  reads,
  graphql,
  legacy,
  webhooks,
  openapi,
  edge,
  admin,
];
