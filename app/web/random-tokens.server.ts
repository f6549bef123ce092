import { randomFillSync } from "node:crypto";

// Each randomBytes() call asks the kernel for its bytes. A page for a new visitor wants two
// tokens (the CSP nonce and the CSRF token), and crypto-js, which remix-utils' CSRF draws from,
// asks once per four bytes: nine system calls a page, about 3% of its CPU (issue 19). The bytes
// are drawn a pool at a time instead, as Node itself does for randomUUID(); no byte is used twice.
const POOL_BYTES = 8192;
let pool = Buffer.alloc(0);
let used = 0;

/** A token of `bytes` random bytes from the CSPRNG, encoded as asked. */
export function randomToken(bytes: number, encoding: "base64" | "base64url"): string {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes)).toString(encoding);
  if (used + bytes > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  const token = pool.toString(encoding, used, used + bytes);
  used += bytes;
  return token;
}
