// A stored value shown in a few words by its kind's cell (a comparison, a list column): titles
// for relations, file names for media, dates in words, text cut short.
import { useQuery } from "@tanstack/react-query";
import { api, keys } from "../api/client.ts";
import type { Field } from "../api/types.ts";
import { useProject } from "../screens/shell/project-context.ts";
import { kindOf } from "./table.ts";

export function ValueCell({ field, value }: { field: Field; value: unknown }) {
  const { project } = useProject();
  // The model list is cached by every screen that shows entries; relations need it for titles.
  const models = useQuery({ queryKey: keys.models(project.id), queryFn: api.models.list });
  const Cell = kindOf(field).Cell;
  return <Cell field={field} value={value} models={models.data ?? []} />;
}
