import { randomFillSync } from "node:crypto";

// Each randomBytes() call asks the kernel for its bytes. A page for a new visitor wants three
// draws (the CSP nonce, the CSRF token and the pad that masks it in the page), a returning one
// two, and crypto-js, which remix-utils' CSRF drew from, asked once per four bytes: nine system
// calls a page, about 3% of its CPU (issue 19). The bytes are drawn a pool at a time instead, as
// Node itself does for randomUUID(); no byte is used twice.
const POOL_BYTES = 8192;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `bytes` random bytes from the CSPRNG. A view of the pool, not a copy: the pool is replaced,
 * never refilled in place, so no later draw can change them.
 */
export function randomBytesFromPool(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes));
  if (used + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  const drawn = pool.subarray(used, used + bytes);
  used += bytes;
  return drawn;
}

/** A token of `bytes` random bytes from the CSPRNG, encoded as asked. */
export function randomToken(bytes: number, encoding: "base64" | "base64url"): string {
  return randomBytesFromPool(bytes).toString(encoding);
}
