// Streaming upload intake (decisions.md section 10): a multipart/form-data body with one or more
// `file` parts and optional `alt`, `title`, `folder` fields. Each file streams to its own temp file
// with a running sha256 and byte count, so memory does not grow with the file's size; a file over
// the limit is refused the moment the limit is crossed and nothing of the upload stays on disk.
// The multipart grammar is @fastify/busboy's (the parser undici's own FormData uses), fed from the
// Request's Web stream by hand so back-pressure reaches the socket and a failure cancels the read.
import type { BusboyFileStream, BusboyInstance } from "@fastify/busboy";
import { createHash } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { AppError, badField } from "../../errors.ts";
import { checkFilename } from "./filename.ts";

/** The default of CAPA_MEDIA_MAX_BYTES: 100 MiB. */
export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
/** At most this many files in one upload. */
export const MAX_FILES = 50;
/** The longest `alt`, `title` or `folder` value, in bytes. */
export const MAX_FIELD_BYTES = 16 * 1024;
const TEXT_FIELDS = ["alt", "title", "folder"] as const;

/** One received file part, complete on disk. */
export interface IncomingFile {
  /** 1-based position among the file parts, for messages. */
  part: number;
  /** The client's name, checked (see filename.ts) and in NFC form. */
  filename: string;
  /** The temp file holding the bytes; the caller moves it into the store, then calls `discard`. */
  path: string;
  size: number;
  /** sha256 of the bytes, lower-case hex. */
  sha256: string;
}

/** The text fields of an upload. */
export type UploadFields = Partial<Record<(typeof TEXT_FIELDS)[number], string>>;

/** A received upload; `discard` removes every temp file (call it once the files are stored). */
export interface Upload {
  files: IncomingFile[];
  fields: UploadFields;
  discard(): Promise<void>;
}

/** Where temp files go and how large one file may be. */
export interface IntakeOptions {
  /** The directory of temp files; best on the same file system as the local store, so a put is a link. */
  dir: string;
  /** The largest file accepted, in bytes (CAPA_MEDIA_MAX_BYTES). */
  maxBytes: number;
  maxFiles?: number;
}

interface Pending {
  file: IncomingFile;
  /** Stops writing (on a failure elsewhere); `done` settles once the file is closed. */
  abort(): void;
  done: Promise<void>;
}

/** How much a file sink buffers before it writes to disk. */
const SINK_BUFFER = 256 * 1024;

/** Streams every part of a multipart upload to disk; throws an AppError naming the part at fault. */
export async function receiveUpload(request: Request, opts: IntakeOptions): Promise<Upload> {
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !/boundary=/i.test(contentType)) throw new AppError("upload_not_multipart");
  const maxFiles = opts.maxFiles ?? MAX_FILES;
  let bb: BusboyInstance;
  // Loaded on the first upload, like sharp (render.ts): a server that is never sent a file never needs it.
  const { Busboy } = await import("@fastify/busboy");
  try {
    bb = Busboy({
      headers: { "content-type": contentType },
      // Keep the client's full name so a path in it is refused rather than silently cut to a basename.
      preservePath: true,
      isPartAFile: (name, _type, filename) => name === "file" || filename !== undefined,
      limits: { fileSize: opts.maxBytes, files: maxFiles, fields: 20, fieldSize: MAX_FIELD_BYTES, headerPairs: 20 },
    });
  } catch {
    throw new AppError("upload_not_multipart");
  }

  const pending: Pending[] = [];
  const fields: UploadFields = {};
  let failure: unknown = null;
  let current = "the body";
  let parts = 0;
  let onFailure = () => {};
  const failed = new Promise<void>((r) => {
    onFailure = r;
  });
  const fail = (err: unknown) => {
    if (failure !== null) return;
    failure = err;
    onFailure();
  };

  bb.on("file", (name: string, stream: BusboyFileStream, filename: string | undefined) => {
    const part = ++parts;
    const what = `file part ${part}`;
    current = what;
    if (failure !== null) return void stream.resume();
    try {
      if (name !== "file") badField(name, `Files go in parts named file; ${what} is named ${JSON.stringify(name)}.`);
      const checked = checkFilename(filename ?? "", what);
      receiveFile(stream, { part, filename: checked, path: join(opts.dir, `upload-${crypto.randomUUID()}.part`), size: 0, sha256: "" }, opts.maxBytes);
    } catch (err) {
      fail(err);
      stream.resume();
    }
  });

  const receiveFile = (stream: BusboyFileStream, file: IncomingFile, maxBytes: number) => {
    // Created here, exclusively and private to us; then written through Bun's FileSink, which
    // buffers SINK_BUFFER bytes per write and keeps RSS near a bare server's (see docs/media.md).
    closeSync(openSync(file.path, "wx", 0o600));
    const sink = Bun.file(file.path).writer({ highWaterMark: SINK_BUFFER });
    const hash = createHash("sha256");
    const label = `file part ${file.part} (${JSON.stringify(file.filename)})`;
    let closing: Promise<void> | null = null;
    let closed = () => {};
    // Settles when the file is closed, whichever way: its end, its error, or an abort.
    const done = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const close = () => {
      closing ??= Promise.resolve(sink.end())
        .then(
          () => {},
          (err) => fail(err),
        )
        .finally(closed);
      return closing;
    };
    stream.on("data", (chunk: Buffer) => {
      if (closing) return;
      file.size += chunk.byteLength;
      hash.update(chunk);
      try {
        sink.write(chunk);
      } catch (err) {
        fail(err);
        void close();
      }
    });
    stream.on("limit", () => {
      fail(new AppError("file_too_large", { message: `The ${label} is larger than the limit of ${maxBytes} bytes.`, extra: { limit: maxBytes } }));
      stream.resume();
    });
    stream.on("end", () => {
      if (!stream.truncated && file.size === 0)
        fail(new AppError("file_empty", { message: `The ${label} is empty.`, param: "file", extra: { field: "file" } }));
      file.sha256 = hash.digest("hex");
      void close();
    });
    stream.on("error", (err) => {
      fail(err);
      void close();
    });
    pending.push({ file, abort: () => void close(), done });
  };

  bb.on("field", (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
    current = `the ${name} field`;
    if (failure !== null) return;
    if (!(TEXT_FIELDS as readonly string[]).includes(name)) {
      return fail(
        new AppError("invalid_body", {
          message: `Unknown field ${JSON.stringify(name)}: send file, alt, title or folder.`,
          param: name,
          extra: { field: name },
        }),
      );
    }
    const key = name as (typeof TEXT_FIELDS)[number];
    if (fields[key] !== undefined)
      return fail(new AppError("invalid_body", { message: `The ${name} field is sent twice.`, param: name, extra: { field: name } }));
    if (valueTruncated) {
      return fail(new AppError("invalid_body", { message: `The ${name} field is longer than ${MAX_FIELD_BYTES} bytes.`, param: name, extra: { field: name } }));
    }
    fields[key] = value;
  });
  bb.on("filesLimit", () =>
    fail(
      new AppError("invalid_body", {
        message: maxFiles === 1 ? "Send one file: this route replaces a single file." : `At most ${maxFiles} files per upload.`,
        param: "file",
        extra: { field: "file" },
      }),
    ),
  );
  bb.on("fieldsLimit", () =>
    fail(new AppError("invalid_body", { message: "Too many text fields: send only alt, title and folder.", extra: { field: "body" } })),
  );

  const finished = new Promise<void>((resolve) => {
    bb.on("finish", () => resolve());
    bb.on("error", (err) => {
      fail(err);
      resolve();
    });
  });

  // Feed the parser by hand: await drain so a slow disk slows the socket, and stop reading at once
  // on the first failure (a file over the limit is refused without reading the rest of the body).
  const reader = request.body?.getReader();
  try {
    if (!reader) throw new Error("no body");
    for (;;) {
      if (failure !== null) {
        await reader.cancel().catch(() => {});
        break;
      }
      const { done, value } = await reader.read();
      if (done) {
        bb.end();
        break;
      }
      if (!bb.write(value)) await Promise.race([new Promise<void>((r) => bb.once("drain", () => r())), failed]);
    }
  } catch {
    // The body stream itself failed: the client went away or sent fewer bytes than it announced.
    fail(new AppError("upload_truncated", { message: `The upload was cut short in ${current}.`, extra: { field: "body" } }));
  }
  if (failure === null) await Promise.race([finished, failed]);
  if (failure === null) await Promise.race([Promise.all(pending.map((p) => p.done)), failed]);
  if (failure !== null) {
    for (const p of pending) p.abort();
    await Promise.all(pending.map((p) => p.done));
    await Promise.all(pending.map((p) => rm(p.file.path, { force: true })));
    throw asAppError(failure, current);
  }
  const files = pending.map((p) => p.file);
  if (files.length === 0) throw new AppError("file_required", { param: "file", extra: { field: "file" } });
  return { files, fields, discard: () => Promise.all(files.map((f) => rm(f.path, { force: true }))).then(() => {}) };
}

/** Our own errors pass through, as do file-system errors (a full disk is ours, not the client's); the parser's mean a bad body. */
function asAppError(err: unknown, current: string): unknown {
  if (err instanceof AppError) return err;
  if (typeof (err as { code?: unknown })?.code === "string") return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/unexpected end/i.test(msg)) return new AppError("upload_truncated", { message: `The upload was cut short in ${current}.`, extra: { field: "body" } });
  return new AppError("upload_not_multipart", { message: `The multipart body is malformed in ${current}: ${msg}.`, extra: { field: "body" } });
}
