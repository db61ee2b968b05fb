// One unit of work for every write (PocketBase's execAfterSuccessTx, WTF Dial's service methods
// that open the transaction and pass it down). `write(s, h, work)` owns the transaction of a
// project file: inside it, `tx.emit(event)` writes the event and, through the subscribers the
// features registered on `Services` at start-up, their outbox rows (webhook deliveries); and
// `tx.afterCommit(fn)` queues what must only happen once the change is durable (telling the read
// caches, waking loops); `tx.purge(tags)` writes the edge caches' purge rows (edge/outbox.ts). A
// `write` inside another one joins it as a savepoint: its after-commit work waits for the
// outermost commit, and is dropped with the savepoint if it rolls back.
//
// Outermost transactions begin IMMEDIATE: they take the write lock at BEGIN, waiting up to the
// busy timeout, instead of failing at once when a read-first transaction upgrades while another
// writer (or Litestream) holds the lock.
import type { Database } from "bun:sqlite";
import type { Services } from "../services.ts";
import type { ProjectHandle } from "../storage/pool.ts";
import { type NewEvent, type WrittenEvent, writeEvent } from "./events/outbox.ts";
import { queuePurge } from "./edge/outbox.ts";

/** A file a unit of work can open: a project's or the control file. `unit` is the open unit, if any. */
export interface UnitHost {
  sqlite: Database;
  unit?: Unit | null;
}

/** The open unit of a file: what runs after its outermost commit, and which notices are due. */
export interface Unit {
  afterCommit: (() => void)[];
  notices: Set<"content" | "models">;
}

/** What a write's work receives: the project, the outbox, and after-commit hooks. */
export interface Tx {
  readonly h: ProjectHandle;
  /** Writes one event to the project's outbox, and every subscriber's rows for it, in this transaction. */
  emit(e: NewEvent): string;
  /** Runs `fn` after the outermost commit (never after a rollback). */
  afterCommit(fn: () => void): void;
  /** Tells the read caches, after the commit, that published content changed (once per unit). */
  contentChanged(): void;
  /** Tells the read caches and GraphQL schemas, after the commit, that a model changed (once per unit). */
  modelsChanged(): void;
  /** Asks every edge cache to drop answers with these tags: a purge row per target, in this transaction (edge/outbox.ts). */
  purge(tags: string[]): void;
}

/** A subscriber to written events: adds its own rows in the event's transaction. */
export type EventSubscriber = (tx: Tx, event: WrittenEvent) => void;

/** The subscribers of one app, registered by feature modules at start-up. */
export class EventSubscribers {
  private readonly list: EventSubscriber[] = [];
  /** Registers a subscriber; it runs inside the transaction of every event emitted afterwards. */
  subscribe(fn: EventSubscriber): void {
    this.list.push(fn);
  }
  /** Runs every subscriber for one written event. */
  notify(tx: Tx, event: WrittenEvent): void {
    for (const fn of this.list) fn(tx, event);
  }
}

/**
 * Runs `body` in the unit of work of `host`: a new IMMEDIATE transaction, or a savepoint of the
 * open one. After the outermost commit, queued callbacks run (each error logged, none lost to
 * another's failure). A raw transaction opened around a unit would make its after-commit work run
 * before the real commit, so it is refused.
 */
export function inUnit<T>(s: Pick<Services, "log">, host: UnitHost, body: (unit: Unit) => T, onCommit?: (unit: Unit) => void): T {
  const outer = host.unit;
  if (outer) {
    const mark = outer.afterCommit.length;
    try {
      return host.sqlite.transaction(() => body(outer))();
    } catch (e) {
      outer.afterCommit.length = mark;
      throw e;
    }
  }
  if (host.sqlite.inTransaction) throw new Error("A unit of work cannot start inside a transaction it does not own.");
  const unit: Unit = { afterCommit: [], notices: new Set() };
  host.unit = unit;
  let result: T;
  try {
    result = host.sqlite.transaction(() => body(unit)).immediate();
  } finally {
    host.unit = null;
  }
  onCommit?.(unit);
  for (const fn of unit.afterCommit) {
    try {
      fn();
    } catch (e) {
      s.log.error("after-commit work failed", { error: String(e instanceof Error ? e.stack : e) });
    }
  }
  return result;
}

/** Runs `work` as one unit of work on a project file (see the file comment). */
export function write<T>(s: Services, h: ProjectHandle, work: (tx: Tx) => T): T {
  return inUnit(
    s,
    h,
    (unit) => {
      const tx: Tx = {
        h,
        emit: (e) => {
          const event = writeEvent(s, h, e);
          s.events.notify(tx, event);
          return event.id;
        },
        afterCommit: (fn) => unit.afterCommit.push(fn),
        contentChanged: () => unit.notices.add("content"),
        modelsChanged: () => unit.notices.add("models"),
        purge: (tags) => queuePurge(s, h.id, h.sqlite, tags, (fn) => unit.afterCommit.push(fn)),
      };
      return work(tx);
    },
    // Notices go out once per unit, before other after-commit work, so a loop woken by that work
    // never reads through a cache that still holds the old copy.
    (unit) => {
      if (unit.notices.has("models")) s.changes.models(h.id);
      if (unit.notices.has("content")) s.changes.content(h.id);
    },
  );
}

/** Runs `work` as one unit of work on the control file (people, projects, keys). */
export function writeControl<T>(s: Services, work: (afterCommit: (fn: () => void) => void) => T): T {
  return inUnit(s, s.control, (unit) => work((fn) => unit.afterCommit.push(fn)));
}
