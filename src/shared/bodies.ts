// The types of every /v2 JSON body, each named as the TypeBox model its route checks it with
// (typedBody) and /v2/openapi.json prints: what a client may send. The admin app types the
// bodies it builds with them (`satisfies`), so a body the server would refuse fails to compile.
// Type-only: the namespaces below are `import type`, and nothing here runs.
import type { Static } from "@sinclair/typebox";
import type * as access from "../domain/access/body-models.ts";
import type * as bulk from "../domain/bulk/bodies.ts";
import type * as entries from "../domain/entries/bodies.ts";
import type * as entryLists from "../domain/entries/list-bodies.ts";
import type * as fieldChanges from "../domain/field-changes/bodies.ts";
import type * as keys from "../domain/keys/bodies.ts";
import type * as layouts from "../domain/layouts/bodies.ts";
import type * as locales from "../domain/locales/bodies.ts";
import type * as media from "../domain/media/bodies.ts";
import type * as models from "../domain/models/bodies.ts";
import type * as projects from "../domain/projects/bodies.ts";
import type * as scheduling from "../domain/scheduling/bodies.ts";
import type * as users from "../domain/users/bodies.ts";
import type * as views from "../domain/views/bodies.ts";
import type * as webhooks from "../domain/webhooks/bodies.ts";
import type * as workspaces from "../domain/workspaces/bodies.ts";

// domain/access/body-models.ts
export type RotateBody = Static<typeof access.RotateBody>;
export type ActiveBody = Static<typeof access.ActiveBody>;

// domain/bulk/bodies.ts
export type BulkBody = Static<typeof bulk.BulkBody>;
export type BulkScheduleBody = Static<typeof bulk.BulkScheduleBody>;

// domain/entries/bodies.ts
export type CreateEntryBody = Static<typeof entries.CreateEntryBody>;
export type UpdateEntryBody = Static<typeof entries.UpdateEntryBody>;
export type ValidateBody = Static<typeof entries.ValidateBody>;
export type PublishBody = Static<typeof entries.PublishBody>;
export type UnpublishBody = Static<typeof entries.UnpublishBody>;
export type PreviewTokenBody = Static<typeof entries.PreviewTokenBody>;

// domain/entries/list-bodies.ts
export type ExportBody = Static<typeof entryLists.ExportBody>;

// domain/field-changes/bodies.ts
export type PlanBody = Static<typeof fieldChanges.PlanBody>;
export type ApplyBody = Static<typeof fieldChanges.ApplyBody>;
export type ResumeBody = Static<typeof fieldChanges.ResumeBody>;

// domain/keys/bodies.ts
export type MintKeyBody = Static<typeof keys.MintKeyBody>;
export type UpdateKeyBody = Static<typeof keys.UpdateKeyBody>;
export type AllowedOriginsBody = Static<typeof keys.AllowedOriginsBody>;

// domain/layouts/bodies.ts
export type LayoutBody = Static<typeof layouts.LayoutBody>;

// domain/locales/bodies.ts
export type LocalesBody = Static<typeof locales.LocalesBody>;

// domain/media/bodies.ts
export type UpdateMediaBody = Static<typeof media.UpdateMediaBody>;
export type CreateFolderBody = Static<typeof media.CreateFolderBody>;
export type UpdateFolderBody = Static<typeof media.UpdateFolderBody>;

// domain/models/bodies.ts
export type CreateModelBody = Static<typeof models.CreateModelBody>;
export type UpdateModelBody = Static<typeof models.UpdateModelBody>;
export type DeleteModelBody = Static<typeof models.DeleteModelBody>;
export type NewField = Static<typeof models.NewField>;
export type FieldEdit = Static<typeof models.FieldEdit>;

// domain/projects/bodies.ts
export type CreateProjectBody = Static<typeof projects.CreateProjectBody>;
export type UpdateProjectBody = Static<typeof projects.UpdateProjectBody>;
export type DeleteProjectBody = Static<typeof projects.DeleteProjectBody>;
export type CurrentProjectBody = Static<typeof projects.CurrentProjectBody>;
export type InviteBody = Static<typeof projects.InviteBody>;
export type MemberBody = Static<typeof projects.MemberBody>;
export type AcceptInvitationBody = Static<typeof projects.AcceptInvitationBody>;
export type TransferOwnershipBody = Static<typeof projects.TransferOwnershipBody>;

// domain/scheduling/bodies.ts
export type ScheduleBody = Static<typeof scheduling.ScheduleBody>;
export type RescheduleBody = Static<typeof scheduling.RescheduleBody>;
export type RetryBody = Static<typeof scheduling.RetryBody>;
export type DefaultsBody = Static<typeof scheduling.DefaultsBody>;
export type AnyBody = Static<typeof scheduling.AnyBody>;

// domain/users/bodies.ts
export type LoginBody = Static<typeof users.LoginBody>;
export type RefreshBody = Static<typeof users.RefreshBody>;
export type LogoutBody = Static<typeof users.LogoutBody>;
export type ProfileBody = Static<typeof users.ProfileBody>;
export type PasswordBody = Static<typeof users.PasswordBody>;
export type PasswordResetBody = Static<typeof users.PasswordResetBody>;
export type PasswordResetConfirmBody = Static<typeof users.PasswordResetConfirmBody>;

// domain/views/bodies.ts
export type CreateViewBody = Static<typeof views.CreateViewBody>;
export type UpdateViewBody = Static<typeof views.UpdateViewBody>;

// domain/webhooks/bodies.ts
export type CreateWebhookBody = Static<typeof webhooks.CreateWebhookBody>;
export type UpdateWebhookBody = Static<typeof webhooks.UpdateWebhookBody>;

// domain/workspaces/bodies.ts
export type WorkspaceNode = Static<typeof workspaces.WorkspaceNode>;
export type CreateWorkspaceBody = Static<typeof workspaces.CreateWorkspaceBody>;
export type UpdateWorkspaceBody = Static<typeof workspaces.UpdateWorkspaceBody>;
export type DuplicateWorkspaceBody = Static<typeof workspaces.DuplicateWorkspaceBody>;
export type CurrentWorkspaceBody = Static<typeof workspaces.CurrentWorkspaceBody>;
export type PutTreeBody = Static<typeof workspaces.PutTreeBody>;
export type AddNodeBody = Static<typeof workspaces.AddNodeBody>;
export type MoveNodesBody = Static<typeof workspaces.MoveNodesBody>;
export type GroupNodesBody = Static<typeof workspaces.GroupNodesBody>;
export type ChangeNodeBody = Static<typeof workspaces.ChangeNodeBody>;
export type AssignBody = Static<typeof workspaces.AssignBody>;
