// The types of the settings screens' answers: API keys, webhooks, saved views, workspaces and
// locales (src/http/v2/keys.ts, webhooks.ts, views.ts, workspaces.ts, locales.ts), made from
// their TypeBox models; their bodies are in bodies.ts. Type-only.
import type { Static } from "@sinclair/typebox";
import type {
  DomainsSeen as DomainsSeenModel,
  Grantable as GrantableModel,
  KeyListItem,
  KeyState as KeyStateModel,
  MintedKey as MintedKeyModel,
  RotatedKey as RotatedKeyModel,
} from "../domain/keys/answers.ts";
import type { LocaleUse, LocalesAnswer } from "../domain/locales/bodies.ts";
import type { Dropped, SavedView as SavedViewModel } from "../domain/views/bodies.ts";
import type {
  Delivery as DeliveryModel,
  DeliveryDetail as DeliveryDetailModel,
  DeliveryList as DeliveryListModel,
  Webhook,
  WebhookWithSecret,
} from "../domain/webhooks/bodies.ts";
import type { Assigned as AssignedModel, ShownNode, Workspace as WorkspaceModel, WorkspaceList as WorkspaceListModel } from "../domain/workspaces/answers.ts";

/** A key as the list shows it (never its secret); `includeStatus=true` adds its state. */
export type ApiKey = Static<typeof KeyListItem>;
/** A key's state after an edit; the answer to a mint or a rotation (the only ones holding the secret). */
export type KeyState = Static<typeof KeyStateModel>;
export type MintedKey = Static<typeof MintedKeyModel>;
export type RotatedKey = Static<typeof RotatedKeyModel>;
/** What the signed-in person may put on a key, and the domains a key was used from. */
export type Grantable = Static<typeof GrantableModel>;
export type DomainsSeen = Static<typeof DomainsSeenModel>;

/** A webhook endpoint, and the answers with its full secret (create, rotation). */
export type Endpoint = Static<typeof Webhook>;
export type EndpointWithSecret = Static<typeof WebhookWithSecret>;
/** A delivery of one event to one endpoint, one try of it, one with the request it sent, and a page. */
export type Delivery = Static<typeof DeliveryModel>;
export type Attempt = Delivery["attempts"][number];
export type DeliveryDetail = Static<typeof DeliveryDetailModel>;
export type DeliveryPage = Static<typeof DeliveryListModel>;

/** A saved view as GET /v2/views answers it, and a part of it that no longer fits. */
export type SavedView = Static<typeof SavedViewModel>;
export type DroppedPart = Static<typeof Dropped>;

/** A workspace, the list with the current and default ids, a node of the rail's tree, an assignment. */
export type Workspace = Static<typeof WorkspaceModel>;
export type WorkspaceList = Static<typeof WorkspaceListModel>;
export type TreeNode = Static<typeof ShownNode>;
export type Assigned = Static<typeof AssignedModel>;

/** The project's locales (`default` is one of them), one locale, and the counts of a 409 locale_in_use. */
export type Locales = Static<typeof LocalesAnswer>;
export type Locale = Locales["locales"][number];
export type LocaleInUse = Static<typeof LocaleUse>["data"][number];
