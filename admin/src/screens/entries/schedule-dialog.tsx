// Scheduling the selected entries (POST /v2/model-instances/bulk-schedule): one publish or
// unpublish per entry at one wall time in one zone; the answer's resolved instant and DST note
// are said afterwards, as the entry's own Schedule card does. With locales (issue 28), a Locales
// group checked as the server's default; `locales` is sent only once changed, as on the card.
import { type FormEvent, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import { listApi, type Selected } from "../../api/entry-lists.ts";
import type { Locales } from "../../api/locales.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Refusal } from "../../ui/refusal.tsx";
import { VIEWER_ZONE, whenIn } from "../../ui/time-zones.ts";
import { WallTimeFields } from "../../ui/wall-time-fields.tsx";
import { LocaleChecks } from "../entry/locale-choice.tsx";
import { entries } from "./words.ts";

export function ScheduleDialog(p: {
  selected: Selected;
  count: number;
  locale?: string;
  locales: { all: Locales; initial: { publish: string[]; unpublish: string[] } } | null;
  onCancel(): void;
  onDone(message: string): void;
}) {
  const [action, setAction] = useState<"publish" | "unpublish">("publish");
  const [chosen, setChosen] = useState<string[] | null>(null);
  const codes = p.locales ? (chosen ?? p.locales.initial[action]) : null;
  const [time, setTime] = useState("");
  const [zone, setZone] = useState(VIEWER_ZONE);
  const schedule = useMutation({
    mutationFn: () =>
      listApi.schedule(p.selected, { action, wallTime: time, timezone: zone, expectedCount: p.count, ...(chosen ? { locales: chosen } : {}) }, p.locale),
    onSuccess: (r) => {
      const resolved = "resolved" in r ? r.resolved : null;
      const at = resolved ? `${whenIn(resolved.at, zone)} ${zone}` : time;
      const note = resolved?.note ? ` ${resolved.note}` : "";
      const named = chosen ? ` in ${chosen.join(", ")}` : "";
      p.onDone(`${action === "publish" ? "Publish" : "Unpublish"} of ${entries(r.count)}${named} scheduled for ${at}.${note}`);
    },
  });
  const err = schedule.error instanceof ApiError ? schedule.error : null;
  const errors = {
    wallTime: err?.field === "wallTime" ? err.message : undefined,
    timezone: err?.field === "timezone" ? err.message : undefined,
  };
  function submit(e: FormEvent) {
    e.preventDefault();
    schedule.mutate();
  }
  return (
    <Dialog open title={`Schedule ${entries(p.count)}`} onCancel={p.onCancel}>
      <form className="form-stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor="bulk-action">Action</label>
          <select id="bulk-action" value={action} onChange={(e) => setAction(e.target.value as "publish" | "unpublish")}>
            <option value="publish">Publish</option>
            <option value="unpublish">Unpublish</option>
          </select>
        </div>
        {p.locales && codes && <LocaleChecks all={p.locales.all} idPrefix="bulk-schedule" legend="Locales" value={codes} onChange={setChosen} />}
        <WallTimeFields idPrefix="bulk" time={time} zone={zone} onTime={setTime} onZone={setZone} errors={errors} />
        {schedule.error && !errors.wallTime && !errors.timezone && <Refusal error={schedule.error} />}
        <div className="toolbar">
          <button type="submit" className="btn btn-primary" disabled={schedule.isPending || !time || codes?.length === 0}>
            {`Schedule ${entries(p.count)}`}
          </button>
          <button type="button" className="btn" onClick={p.onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
