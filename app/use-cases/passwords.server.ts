import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Passwords are hashed with scrypt (memory-hard, in node:crypto), each with its own salt. The
// stored form names its parameters, so a later, costlier setting can be introduced and old hashes
// upgraded at the customer's next sign-in (`needsRehash`).

export interface PasswordCost {
  /** CPU and memory cost: a power of two. 2^15 with r = 8 takes 32 MiB and tens of milliseconds. */
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_PASSWORD_COST: PasswordCost = { N: 2 ** 15, r: 8, p: 1 };

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: PasswordCost, length: number): Promise<Buffer> {
  // Node refuses more than 32 MiB unless told; allow what the parameters need, with room.
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, length, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string, cost: PasswordCost = DEFAULT_PASSWORD_COST): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, cost, KEY_LENGTH);
  return ["scrypt", cost.N, cost.r, cost.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

function parse(stored: string): { cost: PasswordCost; salt: Buffer; hash: Buffer } | null {
  const [scheme, N, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return null;
  const cost = { N: Number(N), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((value) => Number.isInteger(value) && value > 0)) return null;
  return { cost, salt: Buffer.from(salt, "base64"), hash: Buffer.from(hash, "base64") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.cost, parsed.hash.length);
  return timingSafeEqual(actual, parsed.hash);
}

/** True when the stored hash was made with other parameters than `cost`. */
export function needsRehash(stored: string, cost: PasswordCost = DEFAULT_PASSWORD_COST): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.cost.N !== cost.N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}
