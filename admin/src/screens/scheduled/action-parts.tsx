// Pieces every scheduled-actions view shares: an action's target as a link, its status word, the
// buttons a person may press on it (Reschedule, Cancel, Retry), and the writes behind them with
// the server's refusals said in words (a running action's `409 already_running` included).
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ApiError } from "../../api/client.ts";
import { ACTION_STATUS_WORDS, ACTION_WORDS, scheduledApi, scheduledKeys, type Action, type ActionStatus } from "../../api/scheduled.ts";
import type { Resolved } from "../../api/types.ts";
import { instantIn, utc, VIEWER_ZONE } from "../../ui/time-zones.ts";
import { RescheduleDialog } from "./reschedule-dialog.tsx";

/** What an action does to what, in words: `Publish “Spring launch”`. */
export function targetWords(a: Action): string {
  const t = a.target;
  if (!t) return "an entry";
  if (t.missing) return t.type === "model" ? "a deleted model" : "a deleted entry";
  if (t.type === "model") return `every entry of ${t.title ?? t.namespace}`;
  return `“${t.title ?? "Untitled entry"}”`;
}

/** The action in words, for labels: `publish “Spring launch”`. */
export function actionWords(a: Action): string {
  return `${ACTION_WORDS[a.action].toLowerCase()} ${targetWords(a)}`;
}

/** The target, linking to its editor (an entry) or its list (a model). */
export function TargetLink({ action }: { action: Action }) {
  const t = action.target;
  if (!t || t.missing || !t.namespace) return <span className="muted">{t?.type === "model" ? "Deleted model" : "Deleted entry"}</span>;
  if (t.type === "model") {
    return (
      <Link to="/content/$model" params={{ model: t.namespace }}>
        Every entry of {t.title ?? t.namespace}
      </Link>
    );
  }
  return (
    <Link to="/content/$model/$entryId" params={{ model: t.namespace, entryId: t.id }}>
      {t.title ?? "Untitled entry"}
    </Link>
  );
}

/** A status as a coloured dot with its word. */
export function ActionStatusBadge({ status }: { status: ActionStatus }) {
  return <span className={`status action-${status}`}>{ACTION_STATUS_WORDS[status]}</span>;
}

/** A message for the screen: a notice, or an alert for a refusal. */
export interface Said {
  text: string;
  alert: boolean;
}

/** The sentence of a resolved time: the instant in the viewer's zone and in UTC, and the DST note. */
export function resolvedWords(r: Resolved): string {
  return `runs at ${instantIn(r.at)} your time (${VIEWER_ZONE}), ${utc(r.at)}, offset ${r.offset}.${r.note ? ` ${r.note}` : ""}`;
}

function refusal(verb: string, e: Error): string {
  if (e instanceof ApiError && e.code === "already_running") return `Could not ${verb}: the action is running right now, so it can no longer be cancelled.`;
  if (e instanceof ApiError && e.status === 403) return `Your role cannot ${verb} scheduled actions: ${e.message}`;
  return `Could not ${verb}: ${e.message}`;
}

/** The writes of one action, each refreshing every scheduled view and saying its outcome. */
export function useActionWrites(projectId: string, say: (s: Said) => void) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: scheduledKeys.all(projectId) });
  const cancel = useMutation({
    mutationFn: (a: Action) => scheduledApi.cancel(a.id),
    onSuccess: (_, a) => say({ text: `Cancelled: ${actionWords(a)}.`, alert: false }),
    onError: (e: Error) => say({ text: refusal("cancel", e), alert: true }),
    onSettled: refresh,
  });
  const retry = useMutation({
    mutationFn: (a: Action) => scheduledApi.retry(a.id),
    onSuccess: (r, a) => say({ text: `Retrying: ${actionWords(a)} ${resolvedWords(r.resolved)}`, alert: false }),
    onError: (e: Error) => say({ text: refusal("retry", e), alert: true }),
    onSettled: refresh,
  });
  return { cancel, retry, refresh };
}

/** The buttons of one action: Reschedule and Cancel while pending, Retry and Cancel once failed or dead. */
export function ActionButtons({ action, projectId, say }: { action: Action; projectId: string; say(s: Said): void }) {
  const { cancel, retry, refresh } = useActionWrites(projectId, say);
  const [rescheduling, setRescheduling] = useState(false);
  const words = actionWords(action);
  const busy = cancel.isPending || retry.isPending;
  const st = action.status;
  return (
    <span className="row-actions">
      {st === "pending" && (
        <button type="button" className="btn btn-quiet" aria-label={`Reschedule ${words}`} onClick={() => setRescheduling(true)}>
          Reschedule
        </button>
      )}
      {(st === "failed" || st === "dead") && (
        <button type="button" className="btn btn-quiet" aria-label={`Retry ${words}`} disabled={busy} onClick={() => retry.mutate(action)}>
          Retry
        </button>
      )}
      {(st === "pending" || st === "failed" || st === "dead") && (
        <button type="button" className="btn btn-quiet" aria-label={`Cancel ${words}`} disabled={busy} onClick={() => cancel.mutate(action)}>
          Cancel
        </button>
      )}
      {rescheduling && (
        <RescheduleDialog
          title={`Reschedule ${words}`}
          initial={action}
          send={(wallTime, timezone) => scheduledApi.reschedule(action.id, wallTime, timezone).then((a) => a.resolved)}
          onCancel={() => setRescheduling(false)}
          onDone={(r) => {
            setRescheduling(false);
            say({ text: `Rescheduled: ${words} ${resolvedWords(r)}`, alert: false });
            void refresh();
          }}
        />
      )}
    </span>
  );
}

/** Where a screen says what happened: a polite notice, or an alert for a refusal. */
export function SaidLine({ said }: { said: Said | null }) {
  return (
    <div aria-live="polite">
      {said &&
        (said.alert ? (
          <p className="form-error" role="alert">
            {said.text}
          </p>
        ) : (
          <p className="notice">{said.text}</p>
        ))}
    </div>
  );
}
