// Where Capa may send webhooks. Only https URLs; private, loopback, link-local and other
// non-public destinations are refused unless CAPA_WEBHOOK_ALLOW_PRIVATE=1. The check runs on
// the URL's literal host and its DNS answers when an endpoint is saved, and again right before
// every attempt, whose connection then goes to the checked address (DNS rebinding cannot steer it).
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";

/** Why a destination is refused, or null when it is public. */
export function privateReason(ip: string): string | null {
  const kind = isIP(ip);
  if (kind === 4) return v4Reason(ip);
  if (kind === 6) return v6Reason(ip);
  return null;
}

function v4Parts(ip: string): number[] {
  return ip.split(".").map(Number);
}

function v4Reason(ip: string): string | null {
  const [a, b] = v4Parts(ip) as [number, number, number, number];
  if (a === 0) return "is an unspecified address";
  if (a === 127) return "is a loopback address";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "is a private address";
  if (a === 100 && b >= 64 && b <= 127) return "is a shared (carrier-grade NAT) address";
  if (a === 169 && b === 254) return "is a link-local address";
  if (a === 192 && b === 0 && v4Parts(ip)[2] === 0) return "is a reserved address";
  if (a === 198 && (b === 18 || b === 19)) return "is a benchmarking address";
  if (a >= 224) return "is a multicast or reserved address";
  return null;
}

/** Expands an IPv6 address into eight 16-bit groups. */
function v6Groups(ip: string): number[] {
  let s = ip.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  // A trailing dotted IPv4 part counts as two groups.
  const m = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (m) {
    const [a, b, c, d] = v4Parts(m[1]!) as [number, number, number, number];
    s = `${s.slice(0, m.index) + ((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = s.includes("::") ? (s.split("::") as [string, string]) : [s, null];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === null ? [] : Array(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => parseInt(g, 16));
}

function v6Reason(ip: string): string | null {
  const g = v6Groups(ip);
  const zeroUntil = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUntil(8)) return "is an unspecified address";
  if (zeroUntil(7) && g[7] === 1) return "is a loopback address";
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  const embedded = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (zeroUntil(5) && g[5] === 0xffff) return v4Reason(embedded);
  if (zeroUntil(6)) return v4Reason(embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Reason(embedded);
  if ((g[0]! & 0xfe00) === 0xfc00) return "is a private (unique local) address";
  if ((g[0]! & 0xffc0) === 0xfe80) return "is a link-local address";
  if ((g[0]! & 0xffc0) === 0xfec0) return "is a site-local address";
  if ((g[0]! & 0xff00) === 0xff00) return "is a multicast address";
  return null;
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(u: URL): string {
  return u.hostname
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "")
    .toLowerCase();
}

/** Names that always mean this machine, whatever DNS says. */
function localName(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || host === "localhost.localdomain";
}

/** A checked destination: refused with a reason, or the address to connect to (null for an IP literal URL). */
export type Destination = { refused: string } | { address: string | null };

/**
 * Resolves a URL's host and checks every address. `unresolved` says what a name that does not
 * resolve means: when an endpoint is saved it is let through (the check before each attempt
 * repeats it); before an attempt it is an error.
 */
export async function checkDestination(u: URL, unresolved: "allow" | "refuse", lookupMs = 3000): Promise<Destination> {
  const host = bareHost(u);
  if (isIP(host)) {
    const why = privateReason(host);
    return why ? { refused: `${host} ${why}` } : { address: null };
  }
  let answers: { address: string }[];
  try {
    answers = await withTimeout(lookup(host, { all: true, verbatim: true }), lookupMs);
  } catch (e) {
    if (localName(host)) return { refused: `${host} is a loopback name` };
    return unresolved === "allow" ? { address: null } : { refused: `DNS lookup of ${host} failed (${(e as { code?: string }).code ?? String(e)})` };
  }
  for (const a of answers) {
    const why = privateReason(a.address);
    if (why) return { refused: `${host} resolves to ${a.address}, which ${why}` };
  }
  return { address: answers[0]?.address ?? null };
}

/** Why a URL's destination is refused when an endpoint is saved, or null. */
export async function destinationRefusal(u: URL): Promise<string | null> {
  const d = await checkDestination(u, "allow");
  return "refused" in d ? d.refused : null;
}

/**
 * The URL to connect to for a checked address: the address in place of the name, so the
 * connection goes where the check looked (no second lookup a changed DNS answer could steer).
 * The caller sends the name as Host and as the TLS server name.
 */
export function pinnedUrl(u: URL, address: string): string {
  const host = isIP(address) === 6 ? `[${address}]` : address;
  return `${u.protocol}//${host}${u.port ? `:${u.port}` : ""}${u.pathname}${u.search}`;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { code: "ETIMEOUT" })), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
