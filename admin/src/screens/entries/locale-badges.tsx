// The entry list's Locales column (issue 28 item 8): one small badge per locale of the project
// with the entry's status there (a word beside the dot, never colour alone). Its own header and
// cell, shown only when the project has several locales and the model a localized field, so a
// project with one locale lists exactly as before.
import { Fragment } from "react";
import { localizedModel, useLocales } from "../../api/locales.ts";
import { STATUS_WORDS } from "../../api/models.ts";
import type { Entry, Model } from "../../api/types.ts";
import { useProject } from "../shell/project-context.ts";

function useShown(model: Model) {
  const { project } = useProject();
  const l = useLocales(project.id).data;
  return localizedModel(l, model) ? l! : null;
}

/** The column's header, or nothing. */
export function LocalesHeader({ model }: { model: Model }) {
  return useShown(model) ? <th scope="col">Locales</th> : null;
}

/** The badges of one entry, or nothing. */
export function LocalesCell({ model, entry }: { model: Model; entry: Entry }) {
  const l = useShown(model);
  if (!l) return null;
  return (
    <td>
      <span className="locale-badges">
        {l.locales.map((x, i) => {
          const status = entry.locales?.[x.code]?.status ?? "draft";
          // A space between badges, so the cell reads "en published de draft".
          return (
            <Fragment key={x.code}>
              {i > 0 && " "}
              <span className={`locale-badge status status-${status}`} title={`${x.name}: ${STATUS_WORDS[status]}`}>
                {x.code} {STATUS_WORDS[status].toLowerCase()}
              </span>
            </Fragment>
          );
        })}
      </span>
    </td>
  );
}
