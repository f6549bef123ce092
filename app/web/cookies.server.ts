import { createHmac } from "node:crypto";
import {
  createCookieFactory,
  createCookieSessionStorageFactory,
  type CreateCookieFunction,
} from "@remix-run/server-runtime";
import cookieSignature from "cookie-signature";

// The site's cookies are @remix-run/node's, signed as it signs them (cookie-signature's HMAC-SHA256),
// but each with keys of its own: a value signed for one cookie is refused as any other. With one
// key for all, the promo cookie's value, which anyone gets by opening a link, passed as a CSRF
// token (issue 37, decision 0038).

const publishedCookie = createCookieFactory({
  sign: async (value, key) => cookieSignature.sign(value, key),
  unsign: async (signed, key) => cookieSignature.unsign(signed, key),
});

/** The key a cookie named `name` is signed with under `secret`: HMAC-SHA256(secret, label ‖ name). */
export function cookieKey(secret: string, name: string): string {
  return createHmac("sha256", secret).update(`box-office cookie:${name}`).digest("base64url");
}

/**
 * createCookie as @remix-run/node's, with each secret replaced by its key for this cookie's name,
 * worked out once here rather than for every request. The order is kept: the first secret's key
 * signs, every one's verifies, so rotating SESSION_SECRET works as before.
 */
export const createCookie: CreateCookieFunction = (name, options = {}) =>
  publishedCookie(name, { ...options, secrets: options.secrets?.map((secret: string) => cookieKey(secret, name)) });

export const createCookieSessionStorage = createCookieSessionStorageFactory(createCookie);
