// Where Capa may send webhooks. Only https URLs; every address outside the public unicast space
// (private, loopback, link-local, documentation, benchmarking, CGNAT, multicast, reserved, and
// IPv6 forms that carry such an IPv4 address; the ranges of ipaddr.js, after the IANA
// special-purpose registries) is refused unless CAPA_WEBHOOK_ALLOW_PRIVATE=1. The check runs on
// the URL's literal host and its DNS answers when an endpoint is saved, and again right before
// every attempt, whose connection then goes to the checked address (DNS rebinding cannot steer it).
import { isIP } from "node:net";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Why a destination is refused, or null when it is public. */
export function privateReason(ip: string): string | null {
  if (!isIP(ip)) return null;
  const a = ipaddr.parse(ip);
  return a.kind() === "ipv4" ? v4Reason(a as ipaddr.IPv4) : v6Reason(a as ipaddr.IPv6);
}

/**
 * The words for each range name of ipaddr.js, whose tables follow the IANA special-purpose
 * registries. A range without words here is still refused, by its name: only `unicast` passes.
 */
const V4_WORDS: Record<string, string> = {
  unspecified: "is an unspecified address",
  broadcast: "is a broadcast address",
  multicast: "is a multicast address",
  linkLocal: "is a link-local address",
  loopback: "is a loopback address",
  carrierGradeNat: "is a shared (carrier-grade NAT) address",
  private: "is a private address",
  reserved: "is a reserved address (documentation, benchmarking or future use)",
};

const V6_WORDS: Record<string, string> = {
  unspecified: "is an unspecified address",
  loopback: "is a loopback address",
  linkLocal: "is a link-local address",
  multicast: "is a multicast address",
  uniqueLocal: "is a private (unique local) address",
  deprecatedSiteLocal: "is a site-local address",
  discard: "is a discard-only address",
  rfc6145: "is an IPv4-translated address",
  rfc6052: "is a local-use NAT64 address",
  "6to4": "is a 6to4 relay address",
  teredo: "is a Teredo tunnel address",
  benchmarking: "is a benchmarking address",
  reserved: "is a reserved address (documentation or future use)",
};

function v4Reason(a: ipaddr.IPv4): string | null {
  const name = a.range();
  if (name === "unicast") return null;
  return V4_WORDS[name] ?? `is a special-purpose address (${name})`;
}

/** The IPv4 address held in the two 16-bit groups from `group` on of an IPv6 address. */
function v4At(a: ipaddr.IPv6, group: number): ipaddr.IPv4 {
  const [hi, lo] = [a.parts[group]!, a.parts[group + 1]!];
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

/**
 * IPv6 forms that carry an IPv4 address: IPv4-mapped (the address itself), IPv4-compatible,
 * IPv4-translated, NAT64 and 6to4. Each is refused when the address it carries is; an
 * IPv4-mapped or well-known NAT64 form of a public address is as public as the address.
 */
const EMBEDDED: Record<string, { form: string; group: number }> = {
  ipv4Mapped: { form: "IPv4-mapped", group: 6 },
  rfc6145: { form: "IPv4-translated", group: 6 },
  rfc6052: { form: "NAT64", group: 6 },
  "6to4": { form: "6to4", group: 1 },
  compatible: { form: "IPv4-compatible", group: 6 },
};

function v6Reason(a: ipaddr.IPv6): string | null {
  let name: string = a.range();
  // ipaddr.js has no name for the deprecated IPv4-compatible ::a.b.c.d (RFC 4291 2.5.5.1).
  if (name === "unicast" && a.parts.slice(0, 6).every((x) => x === 0)) name = "compatible";
  const carried = EMBEDDED[name];
  if (carried) {
    const v4 = v4At(a, carried.group);
    const why = v4Reason(v4);
    if (name === "ipv4Mapped") return why;
    if (why) return `is the ${carried.form} form of ${v4.toString()}, which ${why}`;
    // The well-known NAT64 prefix 64:ff9b::/96 reaches the public Internet; its local-use /48 does not.
    if (name === "rfc6052" && a.parts[2] === 0) return null;
  }
  if (name === "compatible") return "is an IPv4-compatible address (deprecated)";
  if (name !== "unicast") return V6_WORDS[name] ?? `is a special-purpose address (${name})`;
  // Only 2000::/3 is allocated for global unicast; the rest of the space is unassigned.
  if (a.parts[0]! >> 13 !== 1) return "is outside the global unicast range 2000::/3";
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
