// The cost of a keystroke in the entry editor, measured from a Chromium trace. Two clocks per key:
// - main-thread work: every task the page's main thread runs from one keydown to the next (the
//   key's handlers, React's render, then style, layout and paint of the frame it produces). This
//   is what the 16 ms budget is about: typing drops no frame while it stays under one frame.
// - keydown to the frame after it, as a person sees it; it also holds the wait for the display's
//   next vsync (up to 16.7 ms at 60 Hz), which no page can shorten.
// Both are taken twice in the same run: in the app, and in the same page (same DOM, same CSS)
// with every script removed, so the ratio shows what the app adds over the browser's own cost of
// typing into a page of 60 inputs on this machine.
import type { Page } from "playwright-core";

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { type?: string } };
}

export interface Typing {
  /** Main-thread milliseconds per keystroke. */
  work: number[];
  /** Milliseconds from keydown to the frame after it. */
  frame: number[];
}

// About 100 keys: the p95 of 55 was the third-slowest key alone, and moved between 11 and 18 ms
// from run to run on the same build; of 99 it is the fifth-slowest and moved between 11 and 14.
const TEXT = "The quick brown fox jumps over the lazy dog, twice over. Then it naps in the sun, and wakes for tea.";

/** Types TEXT into `label` on `page` under a trace and answers both clocks per key. */
export async function measureTyping(page: Page, label: string): Promise<Typing> {
  await page.getByLabel(label, { exact: true }).click();
  await page.evaluate(() => {
    const w = window as unknown as { keyFrames: number[] };
    w.keyFrames = [];
    window.addEventListener(
      "keydown",
      (e) => {
        const start = e.timeStamp;
        requestAnimationFrame(() => setTimeout(() => w.keyFrames.push(performance.now() - start), 0));
      },
      true,
    );
  });
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.start", { categories: "devtools.timeline,toplevel", transferMode: "ReportEvents" });
  await page.keyboard.type(TEXT, { delay: 30 });
  await page.waitForTimeout(200);
  await cdp.send("Tracing.end");
  await complete;
  const frame = await page.evaluate(() => (window as unknown as { keyFrames: number[] }).keyFrames);
  await cdp.detach();
  return { work: workPerKey(events), frame };
}

/** Main-thread task time between consecutive keydowns (the last key has no successor and is left out). */
function workPerKey(events: TraceEvent[]): number[] {
  const keydowns = events.filter((e) => e.name === "EventDispatch" && e.args?.data?.type === "keydown").sort((a, b) => a.ts - b.ts);
  if (keydowns.length < 2) throw new Error(`the trace holds ${keydowns.length} keydowns`);
  const { tid, pid } = keydowns[0]!;
  // Tasks nest (a task can run a nested loop), so the busy time is the union of their intervals.
  const spans = events
    .filter((e) => e.tid === tid && e.pid === pid && e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && e.dur)
    .map((e) => [e.ts, e.ts + e.dur!] as const)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = merged.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const out: number[] = [];
  for (let i = 0; i + 1 < keydowns.length; i++) {
    // The key's window opens a little before its keydown: the task that dispatches it began first.
    const from = keydowns[i]!.ts - 1000;
    const to = keydowns[i + 1]!.ts - 1000;
    let us = 0;
    for (const [a, b] of merged) us += Math.max(0, Math.min(b, to) - Math.max(a, from));
    out.push(us / 1000);
  }
  return out;
}

/** Replaces the page with its own markup minus every script: the baseline of the same DOM and CSS. */
export async function stripScripts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const html = document.documentElement.outerHTML.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "");
    document.open();
    document.write(html);
    document.close();
  });
  // The old document is torn down in tasks of its own; let them pass before anything is measured.
  await page.waitForTimeout(1000);
}
