// The `local` media store: one file per key under a folder of the data directory. A put writes
// (or hard-links) a temp file inside the store's own `.tmp` folder and renames it into place, so
// a reader never sees half a file and a crash leaves only a temp file behind. Folders are 0700 and
// files 0600 whatever the umask, as everything in the data directory (docs/security.md).
import { chmod, copyFile, link, mkdir, rename, rm, rmdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DIR_MODE, FILE_MODE } from "../../storage/permissions.ts";
import { assertKey, type ByteRange, type MediaStore, type PutSource } from "./types.ts";

/** Opens (creating if needed) a local store rooted at `root`; temp files a crash left behind are removed. */
export async function openLocalStore(root: string): Promise<MediaStore> {
  // One process owns a data directory, so nothing is writing into .tmp while it opens.
  await rm(join(root, ".tmp"), { recursive: true, force: true });
  await mkdir(join(root, ".tmp"), { recursive: true, mode: DIR_MODE });
  const pathOf = (key: string) => join(root, assertKey(key));
  const sizeOf = async (key: string) => {
    const path = pathOf(key);
    try {
      const s = await stat(path);
      return s.isFile() ? s.size : null;
    } catch {
      return null;
    }
  };

  return {
    driver: "local",
    async put(key: string, source: PutSource) {
      const final = pathOf(key);
      const tmp = join(root, ".tmp", crypto.randomUUID());
      try {
        if ("path" in source && typeof source.path === "string") {
          // A link is free on the same file system (the intake's temp folder should be); else copy.
          await link(source.path, tmp).catch(() => copyFile(source.path, tmp));
        } else if (source instanceof ReadableStream) {
          await Bun.write(tmp, new Response(source));
        } else {
          await Bun.write(tmp, source as Blob | Uint8Array);
        }
        await chmod(tmp, FILE_MODE);
        await mkdir(dirname(final), { recursive: true, mode: DIR_MODE });
        await rename(tmp, final);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    async get(key: string, range?: ByteRange) {
      const size = await sizeOf(key);
      if (size === null) return null;
      const file = Bun.file(pathOf(key));
      return range ? file.slice(range.start, range.end + 1) : file;
    },
    async head(key: string) {
      const size = await sizeOf(key);
      return size === null ? null : { size };
    },
    async exists(key: string) {
      return (await sizeOf(key)) !== null;
    },
    async delete(key: string) {
      const p = pathOf(key);
      await rm(p, { force: true });
      // The per-project folder goes once empty; a folder still holding files stays.
      await rmdir(dirname(p)).catch(() => {});
    },
    localPath: (key: string) => pathOf(key),
  };
}
