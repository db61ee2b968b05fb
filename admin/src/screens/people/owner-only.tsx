// The server's 403 for touching the owner role, said in the words of the People screen.
import { ApiError } from "../../api/client.ts";

/** The owner-only refusal in plain words, or null for any other error. */
export function ownerOnly(error: Error) {
  // The body is bare ({ error, required, current }, no code): a manager's 403 here is the owner rule.
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  return (
    <p role="alert" className="form-error">
      Only an owner can give, change or remove the owner role.
    </p>
  );
}
