// The types of the settings screens' routes: API keys, webhooks, saved views, workspaces and
// locales (src/http/v2/keys.ts, webhooks.ts, views.ts, workspaces.ts, locales.ts), made from
// their TypeBox models. Type-only.
import type { Static } from "@sinclair/typebox";
import type {
  DomainsSeen as DomainsSeenModel,
  Grantable as GrantableModel,
  KeyListItem,
  KeyState as KeyStateModel,
  MintedKey as MintedKeyModel,
  RotatedKey as RotatedKeyModel,
} from "../domain/keys/answers.ts";
import type { MintKeyBody, UpdateKeyBody } from "../domain/keys/bodies.ts";
import type { LocaleUse, LocalesAnswer, LocalesBody } from "../domain/locales/bodies.ts";
import type { CreateViewBody, Dropped, SavedView as SavedViewModel, UpdateViewBody } from "../domain/views/bodies.ts";
import type {
  CreateWebhookBody,
  Delivery as DeliveryModel,
  DeliveryDetail as DeliveryDetailModel,
  DeliveryList as DeliveryListModel,
  UpdateWebhookBody,
  Webhook,
  WebhookWithSecret,
} from "../domain/webhooks/bodies.ts";
import type { Assigned as AssignedModel, ShownNode, Workspace as WorkspaceModel, WorkspaceList as WorkspaceListModel } from "../domain/workspaces/answers.ts";
import type { AssignBody, CreateWorkspaceBody, UpdateWorkspaceBody, WorkspaceNode } from "../domain/workspaces/bodies.ts";

/** A key as the list shows it (never its secret); `includeStatus=true` adds its state. */
export type ApiKey = Static<typeof KeyListItem>;
/** A key's state after an edit; the answer to a mint or a rotation (the only ones holding the secret). */
export type KeyState = Static<typeof KeyStateModel>;
export type MintedKey = Static<typeof MintedKeyModel>;
export type RotatedKey = Static<typeof RotatedKeyModel>;
/** What the signed-in person may put on a key, and the domains a key was used from. */
export type Grantable = Static<typeof GrantableModel>;
export type DomainsSeen = Static<typeof DomainsSeenModel>;
/** What minting and editing a key take. */
export type NewKey = Static<typeof MintKeyBody>;
export type KeyPatch = Static<typeof UpdateKeyBody>;

/** A webhook endpoint, and the answers with its full secret (create, rotation). */
export type Endpoint = Static<typeof Webhook>;
export type EndpointWithSecret = Static<typeof WebhookWithSecret>;
/** A delivery of one event to one endpoint, one try of it, one with the request it sent, and a page. */
export type Delivery = Static<typeof DeliveryModel>;
export type Attempt = Delivery["attempts"][number];
export type DeliveryDetail = Static<typeof DeliveryDetailModel>;
export type DeliveryPage = Static<typeof DeliveryListModel>;
/** What creating and editing an endpoint take. */
export type NewEndpoint = Static<typeof CreateWebhookBody>;
export type EndpointPatch = Static<typeof UpdateWebhookBody>;

/** A saved view as GET /v2/views answers it, a part of it that no longer fits, and its bodies. */
export type SavedView = Static<typeof SavedViewModel>;
export type DroppedPart = Static<typeof Dropped>;
export type NewView = Static<typeof CreateViewBody>;
export type ViewPatch = Static<typeof UpdateViewBody>;

/** A workspace, the list with the current and default ids, a node of the rail's tree, an assignment. */
export type Workspace = Static<typeof WorkspaceModel>;
export type WorkspaceList = Static<typeof WorkspaceListModel>;
export type TreeNode = Static<typeof ShownNode>;
export type Assigned = Static<typeof AssignedModel>;
/** A node of the document form that `PUT .../tree` takes; `id` is kept when given. */
export type DocNode = Static<typeof WorkspaceNode>;
/** What creating a workspace, changing one and assigning one take. */
export type NewWorkspace = Static<typeof CreateWorkspaceBody>;
export type WorkspacePatch = Static<typeof UpdateWorkspaceBody>;
export type Assignment = Static<typeof AssignBody>;

/** The project's locales (`default` is one of them), one locale, what PUT takes, and the counts of a 409 locale_in_use. */
export type Locales = Static<typeof LocalesAnswer>;
export type Locale = Locales["locales"][number];
export type LocalesPut = Static<typeof LocalesBody>;
export type LocaleInUse = Static<typeof LocaleUse>["data"][number];
