// `bun scripts/session-check-bench.ts [rounds] [requests]`: what the sign-out check costs on the
// hot path (issue 24 item 3). `GET /v2/user/me`, the cheapest authenticated /v2 read, runs through
// the in-process app (app.handle, no socket, so the check is not hidden behind network time) in
// alternating rounds of two variants of one app: "check", the server as it is, with 10,000
// signed-out sessions on the revocation list; "no check", the same app with the list's lookup
// replaced by `false`, which is the server before the change. Each round runs both, back to back
// (in turns first), so that load from elsewhere on the machine hits both alike; the figure is the
// median over rounds of the round's ratio, beside each variant's median rate. Not part of the
// test suite.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { testConfig } from "../src/config.ts";
import { createUser } from "../src/domain/users/service.ts";
import { createProject } from "../src/domain/projects/service.ts";

const ROUNDS = Number(process.argv[2] ?? 40);
const REQUESTS = Number(process.argv[3] ?? 2000);
const LISTED = 10_000;

const dir = mkdtempSync(join(tmpdir(), "capa-session-bench-"));
const capa = createApp(testConfig(dir));
const s = capa.services;
const user = createUser(s, { email: "bench@example.com", password: "bench-password-1" });
createProject(s, { name: "Bench", slug: "bench", ownerId: user.id });
const login = await capa.app.handle(
  new Request("http://capa.test/v2/user/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "bench@example.com", password: "bench-password-1" }),
  }),
);
const { accessToken } = (await login.json()) as { accessToken: string };
// A list of the size a busy server might hold (ten thousand sign-outs in the last day).
const until = s.clock.now() + 24 * 3_600_000;
for (let i = 0; i < LISTED; i++) s.revoked.add(`ses_bench${i}`, until);

const checked = s.revoked.has.bind(s.revoked);
const variants: Record<string, (id: string) => boolean> = { check: checked, "no check": () => false };

async function round(): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await capa.app.handle(new Request("http://capa.test/v2/user/me", { headers: { authorization: `Bearer ${accessToken}` } }));
    if (res.status !== 200) throw new Error(`GET /v2/user/me answered ${res.status}`);
    await res.arrayBuffer();
  }
  return REQUESTS / ((performance.now() - t0) / 1000);
}

const rates: Record<string, number[]> = { check: [], "no check": [] };
const ratios: number[] = [];
// A warm-up round of each, then the measured rounds, alternating so that drift hits both alike.
for (let r = -1; r < ROUNDS; r++) {
  for (const [name, has] of r % 2 === 0 ? Object.entries(variants) : Object.entries(variants).reverse()) {
    s.revoked.has = has;
    const rate = await round();
    if (r >= 0) rates[name]!.push(rate);
  }
  if (r >= 0) ratios.push(rates.check!.at(-1)! / rates["no check"]!.at(-1)!);
}
s.revoked.has = checked;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const check = median(rates.check!);
const without = median(rates["no check"]!);
console.log(`GET /v2/user/me, ${ROUNDS} rounds of ${REQUESTS} requests each, ${LISTED} sessions on the list`);
console.log(`check:    ${check.toFixed(0)} req/s (median)`);
console.log(`no check: ${without.toFixed(0)} req/s (median)`);
console.log(`ratio check / no check: ${median(ratios).toFixed(3)} (median of the rounds' ratios; of the medians ${(check / without).toFixed(3)})`);
capa.close();
rmSync(dir, { recursive: true, force: true });
