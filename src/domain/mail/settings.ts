// The mail settings (decisions.md section 15), read from the environment table config.ts hands
// over (config.ts stays the only reader of process.env): CAPA_SMTP_URL, `smtp://` or `smtps://`
// with the user and password in the URL, and CAPA_MAIL_FROM. Both or neither: without them the
// server sends no mail. A bad value stops start-up with a one-line ConfigError that never repeats
// the password. docs/configuration.md lists both.
import { ConfigError } from "../../config-error.ts";

/** How the server reaches its SMTP server, defaults applied. */
export interface MailSettings {
  host: string;
  port: number;
  /** `smtps://`: TLS from the first byte (port 465 unless the URL names another). */
  secure: boolean;
  /**
   * `smtp://` to another machine: the connection must be upgraded with STARTTLS before the
   * password or a mail (which holds a one-use link) is sent; to the machine itself it need not.
   */
  requireTls: boolean;
  auth: { user: string; pass: string } | null;
  /** The From of every mail: an address, or `Name <address>`. */
  from: string;
  /** The URL without its password, for logs. */
  shown: string;
}

type Env = Record<string, string | undefined>;

const EXAMPLE = "smtps://user:password@smtp.example.com (percent-encode reserved characters in the user and password)";

/** Whether a host name is this machine, where no one can read the connection on the way. */
function loopback(host: string): boolean {
  return host === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "[::1]";
}

function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ConfigError(`CAPA_SMTP_URL: the ${what} is not valid percent-encoding; write it as in ${EXAMPLE}`);
  }
}

/** CAPA_MAIL_FROM: `capa@example.com` or `Capa <capa@example.com>`, on one line. */
function readFrom(raw: string): string {
  const v = raw.trim();
  const address = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
  const named = /^([^<>\r\n"]*)<([^<>]+)>$/.exec(v);
  if (address.test(v) || (named && address.test(named[2]!.trim()))) return v;
  // JSON quoting keeps the message on one line whatever the value holds.
  throw new ConfigError(`CAPA_MAIL_FROM must be an e-mail address, or a name and an address as in Capa <capa@example.com>; got ${JSON.stringify(raw)}`);
}

/** The mail settings, or null when the server sends no mail. */
export function readMailSettings(env: Env): MailSettings | null {
  const raw = env.CAPA_SMTP_URL?.trim() || null;
  const fromRaw = env.CAPA_MAIL_FROM?.trim() || null;
  if (raw === null && fromRaw === null) return null;
  if (raw === null) throw new ConfigError("CAPA_MAIL_FROM is set but CAPA_SMTP_URL is not; set both to send mail, or neither");
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // The value may hold a password: it is never repeated.
    throw new ConfigError(`CAPA_SMTP_URL is not a URL; write it as ${EXAMPLE}`);
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:") {
    throw new ConfigError(`CAPA_SMTP_URL must start with smtp:// or smtps://, got "${u.protocol}//"`);
  }
  if (!u.hostname) throw new ConfigError(`CAPA_SMTP_URL names no host; write it as ${EXAMPLE}`);
  if ((u.pathname !== "" && u.pathname !== "/") || u.search || u.hash) {
    throw new ConfigError("CAPA_SMTP_URL takes no path, query or fragment: only smtp(s)://user:password@host:port");
  }
  if (Boolean(u.username) !== Boolean(u.password)) {
    throw new ConfigError("CAPA_SMTP_URL must hold both a user and a password (smtps://user:password@host), or neither");
  }
  if (fromRaw === null) throw new ConfigError("CAPA_MAIL_FROM must be set with CAPA_SMTP_URL: the address mail comes from, as in Capa <capa@example.com>");
  const secure = u.protocol === "smtps:";
  const host = u.hostname;
  return {
    host,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    requireTls: !secure && !loopback(host),
    auth: u.username ? { user: decoded(u.username, "user"), pass: decoded(u.password, "password") } : null,
    from: readFrom(fromRaw),
    shown: `${u.protocol}//${u.username ? `${u.username}:***@` : ""}${u.host}`,
  };
}
