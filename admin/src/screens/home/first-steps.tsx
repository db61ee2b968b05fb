// A new project's three first steps (issue 27, home): make a model, add an entry, make an API key;
// each a link to where it is done, marked once it is.
import { Link } from "@tanstack/react-router";
import type { HomeAnswer } from "../../api/home.ts";

export function FirstSteps(p: { steps: NonNullable<HomeAnswer["firstSteps"]>; firstModel: string | null; canKeys: boolean; canWrite: boolean }) {
  const mark = (done: boolean) => <span className={done ? "step-done" : "muted"}>{done ? "Done" : "To do"}</span>;
  return (
    <section className="card first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">First steps</h2>
      <ol>
        <li>
          <Link to="/models">Make a model</Link> {mark(p.steps.model)}
          <p className="muted">The shape of your content: its fields, such as a title and a body.</p>
        </li>
        <li>
          {p.firstModel && p.canWrite ? (
            <Link to="/content/$model/new" params={{ model: p.firstModel }}>
              Add an entry
            </Link>
          ) : (
            <span>Add an entry</span>
          )}{" "}
          {mark(p.steps.entry)}
          <p className="muted">{p.firstModel ? "Write the first piece of content." : "Make a model first; its entries are written here."}</p>
        </li>
        <li>
          {p.canKeys ? <Link to="/keys">Make an API key</Link> : <span>Make an API key</span>} {mark(p.steps.key)}
          <p className="muted">{p.canKeys ? "Your site reads the content with it." : "Owners, admins and developers make keys."}</p>
        </li>
      </ol>
    </section>
  );
}
