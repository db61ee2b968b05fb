// The command line (`bin/capa` or `bun run capa`): the server and the few operations an operator
// needs before the admin exists. It opens the same data directory as the server (the same
// configuration) and calls the same domain functions as the routes. Every error is one line on
// stderr and exit code 1.
import { parseArgs } from "node:util";
import { loadConfig } from "./config.ts";
import { AppError } from "./errors.ts";
import type { CapaApp } from "./app.ts";
import type { Services } from "./services.ts";
import { die, startupReason } from "./startup-failure.ts";
import { createUser, findUserByEmail, setPassword } from "./domain/users/service.ts";
import { createProject, getProjectByIdOrSlug, setSubscription, type Project } from "./domain/projects/service.ts";
import { mintKey } from "./domain/keys/mint.ts";

type Options = Record<string, { type: "string" | "boolean" }>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  /** The flags, as help prints them after the command's name. */
  usage: string;
  summary: string;
  options: Options;
  run(v: Values): void | Promise<void>;
}

const text = (): { type: "string" } => ({ type: "string" });

/** One row per command; the key is what the user types. */
const COMMANDS: Record<string, Command> = {
  serve: {
    usage: "",
    summary: "start the server (the same as npm start)",
    options: {},
    // The app loads only for commands that use it, so help and usage errors answer at once.
    run: async () => (await import("./server.ts")).serve(process.env),
  },
  "user add": {
    usage: "--email E --password P",
    summary: "create an account",
    options: { email: text(), password: text() },
    run: (v) =>
      withServices((sv) => {
        const user = createUser(sv, { email: need(v, "email"), password: need(v, "password") });
        out(`Created user ${user.email} (id ${user.id})`);
      }),
  },
  "user password": {
    usage: "--email E --password P",
    summary: "set the password of an account on this server (the operator's reset; projects never set passwords)",
    options: { email: text(), password: text() },
    run: (v) =>
      withServices((sv) => {
        const email = need(v, "email");
        const user = findUserByEmail(sv, email);
        if (!user) fail(`no account with e-mail ${email}`);
        setPassword(sv, user.id, need(v, "password"));
        out(`Set the password of ${user.email}`);
      }),
  },
  "project add": {
    usage: "--name N [--slug S] --owner EMAIL",
    summary: "create a project owned by an existing account",
    options: { name: text(), slug: text(), owner: text() },
    run: (v) =>
      withServices((sv) => {
        const name = need(v, "name");
        const ownerEmail = need(v, "owner");
        const owner = findUserByEmail(sv, ownerEmail);
        if (!owner) fail(`no account with e-mail ${ownerEmail}; create it with: capa user add --email ${ownerEmail} --password <password>`);
        const p = createProject(sv, { name, slug: v.slug, ownerId: owner.id });
        out(`Created project ${p.name} (slug ${p.slug}, id ${p.id}), owned by ${owner.email}`);
      }),
  },
  "project subscription": {
    usage: "--project <id|slug> --active true|false",
    summary: "turn a project's subscription on or off",
    options: { project: text(), active: text() },
    run: (v) =>
      withServices((sv) => {
        const p = projectOf(sv, need(v, "project"));
        const raw = need(v, "active");
        if (raw !== "true" && raw !== "false") fail(`--active must be true or false, got "${raw}"`);
        setSubscription(sv, p.id, raw === "true");
        out(`Subscription of ${p.slug} is now ${raw === "true" ? "active" : "inactive"}`);
      }),
  },
  "key mint": {
    usage: "--project <id|slug> (--scopes a,b | --preset read_only | --permission read) [--environment production|development] [--name N]",
    summary: "mint an API key; prints the secret once",
    options: { project: text(), scopes: text(), preset: text(), permission: text(), environment: text(), name: text() },
    run: (v) =>
      withServices((sv) => {
        const p = projectOf(sv, need(v, "project"));
        const kinds = ["scopes", "preset", "permission"].filter((k) => v[k] !== undefined);
        if (kinds.length !== 1) fail("key mint needs exactly one of --scopes, --preset or --permission");
        const body: Record<string, unknown> = { environment: v.environment, name: v.name };
        if (v.scopes !== undefined)
          body.scopes = String(v.scopes)
            .split(",")
            .map((x) => x.trim())
            .filter(Boolean);
        if (v.preset !== undefined) body.preset = v.preset;
        if (v.permission !== undefined) body.permission = v.permission;
        for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
        const key = mintKey(sv, p.id, { kind: "cli" }, body);
        // The secret alone on stdout, so `KEY=$(capa key mint ...)` works; the note goes to stderr.
        out(key.apiKey);
        process.stderr.write(`Minted "${key.name}" (${key.environment}, id ${key.id}) for ${p.slug}. Store the secret now: it is not shown again.\n`);
      }),
  },
  restore: {
    usage: "",
    summary: "restore every file from CAPA_REPLICA_URL into an empty data directory",
    options: {},
    run: async () => {
      const config = loadConfig();
      if (!config.replicaUrl) fail("restore needs CAPA_REPLICA_URL");
      const { restoreAll, RestoreError } = await import("./infra/restore.ts");
      const replica = { replicaUrl: config.replicaUrl, replicaEndpoint: config.replicaEndpoint, replicaRegion: config.replicaRegion };
      try {
        const r = await restoreAll(replica, config.dataDir);
        const projects = r.files.length - 1;
        out(`Restored control.sqlite and ${projects} project file${projects === 1 ? "" : "s"} from ${config.replicaUrl} into ${config.dataDir} in ${r.ms} ms`);
        // media-wire: the media library's files come back from <replica>/media into the local store.
        if (config.media.store === "local") {
          // Files and folders made from here on are for Capa's user only, as the server makes them.
          process.umask(0o077);
          const { restoreProjectsMedia } = await import("./domain/media/backup.ts");
          const n = await restoreProjectsMedia(replica, config.dataDir, r.files);
          out(`Restored ${n} media file${n === 1 ? "" : "s"}`);
        }
        // A project created moments before the backup point may have no replica yet; it starts empty.
        for (const rel of r.missing) process.stderr.write(`capa: warning: no backup of ${rel} in the replica; that project starts empty\n`);
      } catch (err) {
        if (err instanceof RestoreError) fail(err.message);
        throw err;
      }
    },
  },
};

/** A usage problem or a refused operation: one line, exit 1. */
class CliError extends Error {}

function fail(message: string): never {
  throw new CliError(message);
}

function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

function need(v: Values, name: string): string {
  const x = v[name];
  if (typeof x !== "string" || x.length === 0) fail(`--${name} is required`);
  return x;
}

function projectOf(sv: Services, ref: string): Project {
  const p = getProjectByIdOrSlug(sv, ref);
  if (!p) fail(`no project with id or slug "${ref}"`);
  return p;
}

/** Opens the data directory the server uses, runs `fn`, and closes every file. */
async function withServices(fn: (s: Services) => void): Promise<void> {
  const config = loadConfig();
  const { createApp } = await import("./app.ts");
  let capa: CapaApp;
  try {
    capa = createApp(config);
  } catch (err) {
    fail(startupReason(err, "data", { host: config.host, port: config.port, dataDir: config.dataDir }));
  }
  try {
    fn(capa.services);
  } finally {
    capa.close();
  }
}

function help(): string {
  const lines = Object.entries(COMMANDS).flatMap(([name, c]) => [`  capa ${name} ${c.usage}`.trimEnd(), `      ${c.summary}`]);
  return ["Usage:", ...lines, "  capa help", "", "Settings come from the environment (docs/configuration.md); the data directory is CAPA_DATA_DIR."].join("\n");
}

/** Finds the command named by the first one or two words. */
function resolve(argv: string[]): { name: string; command: Command; rest: string[] } | null {
  const two = argv.slice(0, 2).join(" ");
  if (COMMANDS[two]) return { name: two, command: COMMANDS[two], rest: argv.slice(2) };
  if (argv[0] && COMMANDS[argv[0]]) return { name: argv[0], command: COMMANDS[argv[0]], rest: argv.slice(1) };
  return null;
}

/** Parses flags strictly, turning Node's long messages into one short sentence. */
function flags(name: string, c: Command, rest: string[]): Values {
  try {
    const { values, positionals } = parseArgs({ args: rest, options: c.options, strict: true, allowPositionals: true });
    if (positionals.length) fail(`unexpected argument "${positionals[0]}" for "${name}"; run: capa help`);
    return values as Values;
  } catch (err) {
    if (err instanceof CliError) throw err;
    const e = err as { code?: string; message?: string };
    const opt = /'(-[^' ]+)/.exec(e.message ?? "")?.[1] ?? "";
    if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") fail(`unknown option ${opt} for "${name}"; run: capa help`);
    if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") fail(`option ${opt} needs a value`);
    fail(String(e.message).split(/\.\s/)[0]!);
  }
}

/** One line for an error; a domain error names the flag at fault when its message does not. */
function reason(err: unknown): string {
  const field = err instanceof AppError ? err.extra?.field : undefined;
  if (err instanceof AppError && typeof field === "string" && !err.message.includes(field)) return `${err.message} (--${field})`;
  return startupReason(err);
}

/** Runs one command line; exits 1 with one line on any error. */
export async function main(argv: string[]): Promise<void> {
  if (argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h") {
    out(help());
    return;
  }
  try {
    if (argv.length === 0) fail("no command given; run: capa help");
    const found = resolve(argv);
    if (!found) fail(`unknown command "${argv.slice(0, 2).join(" ")}"; run: capa help`);
    await found.command.run(flags(found.name, found.command, found.rest));
    if (found.name !== "serve") process.exit(0);
  } catch (err) {
    die(err instanceof CliError ? err.message : reason(err));
  }
}

if (import.meta.main) await main(process.argv.slice(2));
