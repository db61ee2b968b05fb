// One delivery opened (issue 27 item 7): the request Capa sent (method, URL, the exact body every
// attempt signed) and, for each attempt, the headers sent and the answer (status, headers, the
// first 4 KB of its body). The server masks the signature (`v1,****`): the signing secret and a
// valid signature never reach the page. Asked for only when a delivery is opened.
import { useQuery } from "@tanstack/react-query";
import { type Attempt, hookApi, hookKeys } from "../../api/webhooks.ts";
import { Refusal } from "../../ui/refusal.tsx";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The body as sent, laid out when it is JSON (it always is from Capa; the layout is for reading). */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Headers({ caption, headers }: { caption: string; headers: Record<string, string> | null }) {
  const list = Object.entries(headers ?? {});
  if (list.length === 0) return <p className="muted">{caption}: none kept.</p>;
  return (
    <table className="header-table">
      <caption>{caption}</caption>
      <tbody>
        {list.map(([name, value]) => (
          <tr key={name}>
            <th scope="row" className="mono">
              {name}
            </th>
            <td className="mono excerpt">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function answerWords(a: Attempt): string {
  return a.statusCode !== null ? `HTTP ${a.statusCode}` : (a.error ?? "No answer");
}

/** The attempts in one table: number, time, answer, duration and the answer's first bytes. */
function AttemptTable({ attempts }: { attempts: Attempt[] }) {
  return (
    <table className="attempts-table">
      <caption className="visually-hidden">Attempts of this delivery</caption>
      <thead>
        <tr>
          <th scope="col">Attempt</th>
          <th scope="col">Started</th>
          <th scope="col">Answer</th>
          <th scope="col">Duration</th>
          <th scope="col">Answer excerpt</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={a.number}>
            <td>{a.number}</td>
            <td>
              <time dateTime={a.startedAt}>{when.format(new Date(a.startedAt))}</time>
            </td>
            <td>{answerWords(a)}</td>
            <td>{a.durationMs !== null ? `${a.durationMs} ms` : "—"}</td>
            <td>
              <code className="mono excerpt">{a.response ?? a.error ?? ""}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The details of delivery `deliveryId` of endpoint `id`. */
export function DeliveryDetail({ project, id, deliveryId }: { project: string; id: string; deliveryId: string }) {
  const q = useQuery({ queryKey: hookKeys.delivery(project, id, deliveryId), queryFn: () => hookApi.delivery(id, deliveryId) });
  if (q.isError) return <Refusal error={q.error} />;
  if (!q.data) return <p>Loading…</p>;
  const d = q.data;
  const last = d.attempts.length - 1;
  return (
    <div className="delivery-detail">
      <h3>Request</h3>
      <p className="mono excerpt">
        {d.request.method} {d.request.url}
      </p>
      {d.request.body === null ? (
        <p className="muted">The body sent is no longer kept.</p>
      ) : (
        <figure className="code-figure">
          <figcaption>Body sent</figcaption>
          <pre className="code-block">{readable(d.request.body)}</pre>
        </figure>
      )}
      <h3>Attempts</h3>
      {d.attempts.length === 0 ? (
        <p className="muted">No attempt yet.</p>
      ) : (
        <>
          <AttemptTable attempts={d.attempts} />
          {d.attempts.map((a, i) => (
            // The newest attempt is open: it is the one a person debugging a receiver reads first.
            <details key={a.number} open={i === last} className="attempt-detail">
              <summary>
                Attempt {a.number}: {answerWords(a)}
              </summary>
              <Headers caption={`Headers sent with attempt ${a.number}`} headers={a.requestHeaders} />
              <Headers caption={`Answer headers of attempt ${a.number}`} headers={a.responseHeaders} />
              {a.response ? (
                <figure className="code-figure">
                  <figcaption>Answer body of attempt {a.number}</figcaption>
                  <pre className="code-block">{a.response}</pre>
                </figure>
              ) : (
                <p className="muted">
                  Answer body of attempt {a.number}: {a.error ?? "empty"}.
                </p>
              )}
            </details>
          ))}
        </>
      )}
    </div>
  );
}
