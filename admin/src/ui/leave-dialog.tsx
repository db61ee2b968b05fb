// "Leave without saving?": what a screen with unsaved changes asks when the person navigates away
// (TanStack Router's blocker with its resolver). `what` names the changes ("this entry").
import { Dialog } from "./dialog.tsx";

interface Blocker {
  status: string;
  proceed?: () => void;
  reset?: () => void;
}

export function LeaveDialog({ blocker, what }: { blocker: Blocker; what: string }) {
  return (
    <Dialog open={blocker.status === "blocked"} title="Leave without saving?" onCancel={() => blocker.reset?.()}>
      <p>Your changes to {what} are not saved.</p>
      <div className="toolbar">
        <button type="button" className="btn btn-danger-solid" onClick={() => blocker.proceed?.()}>
          Leave
        </button>
        <button type="button" className="btn" onClick={() => blocker.reset?.()}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
