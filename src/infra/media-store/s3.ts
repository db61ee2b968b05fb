// The `s3://bucket/prefix` media store through Bun's built-in S3 client (decisions.md section 10):
// AWS or any S3-compatible service (`CAPA_MEDIA_S3_ENDPOINT`). An S3 PUT is atomic by nature;
// Bun switches to a multipart upload for large bodies on its own.
import { assertKey, type ByteRange, type MediaStore, type PutSource } from "./types.ts";

/** Where and as whom the S3 store connects; credentials default to Bun's own (S3_* / AWS_* variables). */
export interface S3StoreOptions {
  bucket: string;
  prefix: string;
  endpoint?: string | null;
  region?: string | null;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** Parses `s3://bucket/prefix` into bucket and prefix (no leading or trailing slash); null if not one. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) return null;
  return { bucket: m[1]!, prefix: (m[2] ?? "").replace(/^\/+|\/+$/g, "") };
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return code === "NoSuchKey" || code === "NotFound" || /does not exist|not found/i.test(String(err));
}

/** Opens an S3 store; nothing is contacted until the first call. */
export function openS3Store(opts: S3StoreOptions): MediaStore {
  const client = new Bun.S3Client({
    bucket: opts.bucket,
    endpoint: opts.endpoint ?? undefined,
    region: opts.region ?? undefined,
    accessKeyId: opts.accessKeyId,
    secretAccessKey: opts.secretAccessKey,
  });
  const name = (key: string) => (opts.prefix ? `${opts.prefix}/${assertKey(key)}` : assertKey(key));

  return {
    driver: "s3",
    async put(key: string, source: PutSource) {
      if ("path" in source && typeof source.path === "string") {
        // Two 5 MiB parts in flight at most: Bun's default queue held ~80 MB of a 300 MB file, this
        // ~50 MB. (Bun 1.4 stores nothing when these options come with a streamed body, so only here.)
        await client.write(name(key), Bun.file(source.path), { partSize: 5 * 1024 * 1024, queueSize: 2 });
        return;
      }
      await client.write(name(key), source instanceof ReadableStream ? new Response(source) : (source as Blob | Uint8Array));
    },
    async get(key: string, range?: ByteRange) {
      const file = client.file(name(key));
      // Bun 1.4 reads slice(0, 1) as the whole object, so a one-byte range at 0 asks for two bytes;
      // every range is then cut to its exact length below.
      const source = range ? file.slice(range.start, range.start === 0 && range.end === 0 ? 2 : range.end + 1) : file;
      let left = range ? range.end - range.start + 1 : Number.POSITIVE_INFINITY;
      // Never hand Bun.serve the S3File itself: it would answer with a redirect to a presigned URL.
      // The first chunk is read here so a missing key is null rather than a stream that fails later.
      const reader = source.stream().getReader();
      let first: Awaited<ReturnType<typeof reader.read>>;
      try {
        first = await reader.read();
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      const emit = (controller: ReadableStreamDefaultController<Uint8Array>, chunk: Uint8Array) => {
        const part = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
        left -= part.byteLength;
        controller.enqueue(part);
        if (left <= 0) {
          controller.close();
          void reader.cancel().catch(() => {});
        }
      };
      return new ReadableStream<Uint8Array>({
        start(controller) {
          if (first.done) controller.close();
          else emit(controller, first.value);
        },
        async pull(controller) {
          const next = await reader.read();
          if (next.done) controller.close();
          else emit(controller, next.value);
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
    },
    async head(key: string) {
      try {
        const s = await client.stat(name(key));
        return { size: s.size };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },
    exists: (key: string) => client.exists(name(key)),
    async delete(key: string) {
      await client.delete(name(key));
    },
  };
}
