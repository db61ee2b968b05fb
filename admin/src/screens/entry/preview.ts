// Preview: the model's site URL for an entry, opened with a fresh preview token.
import { api } from "../../api/client.ts";
import { previewUrlFor } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";

/**
 * Opens the model's preview URL for an entry with a fresh preview token. The tab opens at once (a
 * browser allows that only within the click), and is sent to the URL once the token is minted.
 */
export async function openPreview(model: Model, entry: Entry): Promise<void> {
  const tab = window.open("about:blank", "_blank");
  // The site page must not reach back into the admin through window.opener.
  if (tab) tab.opener = null;
  try {
    const { token } = await api.previews.create([entry.id]);
    const url = previewUrlFor(model, entry, token);
    if (tab && url) tab.location.href = url;
  } catch {
    tab?.close();
  }
}
