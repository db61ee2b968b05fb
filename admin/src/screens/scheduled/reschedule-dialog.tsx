// Rescheduling one action or a batch's pending actions: a wall time and an IANA zone (the
// action's own to start with). The server resolves them; its refusals are said at the field
// they name (`in_the_past` at Time, an unknown zone at Time zone), anything else in the dialog.
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError } from "../../api/client.ts";
import type { Resolved } from "../../api/types.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { WallTimeFields } from "../../ui/wall-time-fields.tsx";

interface Props {
  title: string;
  /** The time the form starts from. */
  initial: { wallTime: string; timezone: string };
  /** Sends the new time; answers the server's resolved instant. */
  send(wallTime: string, timezone: string): Promise<Resolved>;
  onDone(resolved: Resolved): void;
  onCancel(): void;
}

/** The dialog; mounted only while open, so each opening starts from the action's own time. */
export function RescheduleDialog({ title, initial, send, onDone, onCancel }: Props) {
  const [time, setTime] = useState(initial.wallTime.slice(0, 16));
  const [zone, setZone] = useState(initial.timezone);
  const [errors, setErrors] = useState<{ wallTime?: string; timezone?: string; general?: string }>({});
  const save = useMutation({
    mutationFn: () => send(time.length === 16 ? `${time}:00` : time, zone.trim()),
    onSuccess: onDone,
    onError: (e: Error) => {
      const field = e instanceof ApiError ? e.field : null;
      if (field === "wallTime" || field === "timezone") setErrors({ [field]: e.message });
      else setErrors({ general: e.message });
    },
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!time) return setErrors({ wallTime: "Choose a date and time." });
    save.mutate();
  }

  return (
    <Dialog open title={title} onCancel={onCancel}>
      <form className="form-stack" onSubmit={submit} noValidate>
        <WallTimeFields idPrefix="reschedule" time={time} zone={zone} onTime={setTime} onZone={setZone} errors={errors} />
        {errors.general && (
          <p className="form-error" role="alert">
            {errors.general}
          </p>
        )}
        <div className="toolbar">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Reschedule
          </button>
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
