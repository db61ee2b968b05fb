// `image`, `video` and `file` fields: a file of the library (media-input.tsx), shown in a cell by
// its thumbnail-free name (a list row stays light).
import { useQuery } from "@tanstack/react-query";
import { mediaApi, mediaKeys } from "../../api/media.ts";
import { useProject } from "../../screens/shell/project-context.ts";
import type { CellProps, FieldKind } from "../types.ts";
import { MediaInput } from "./media-input.tsx";

function MediaCell({ value }: CellProps) {
  const { project } = useProject();
  const v = value && typeof value === "object" ? (value as { id?: string; url?: string }) : null;
  const ref = v && !v.url && typeof v.id === "string" ? v.id : null;
  const file = useQuery({ queryKey: mediaKeys.file(project.id, ref ?? ""), queryFn: () => mediaApi.get(ref!), enabled: ref !== null });
  if (!v) return "—";
  if (v.url) return v.url;
  return file.data?.filename ?? (file.isError ? "Deleted file" : "…");
}

export const mediaKind: FieldKind = {
  Input: (p) => <MediaInput {...p} />,
  Cell: MediaCell,
  settings: ["help"],
  empty: () => null,
  labelling: "for",
};
