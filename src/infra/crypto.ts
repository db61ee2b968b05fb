// Small wrappers over Bun's crypto: hashes of secrets and random tokens.

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** SHA-256 as lowercase hex. Used for high-entropy secrets (keys, refresh tokens), never passwords. */
export function sha256Hex(s: string): string {
  return Bun.CryptoHasher.hash("sha256", s, "hex") as string;
}

/** `n` random base62 characters (rejection sampling keeps the distribution uniform). */
export function randomToken(n: number): string {
  let out = "";
  while (out.length < n) {
    const buf = crypto.getRandomValues(new Uint8Array(n * 2));
    for (const b of buf) {
      if (b < 248 && out.length < n) out += BASE62[b % 62];
    }
  }
  return out;
}
