import { createCookieFactory, createCookieSessionStorageFactory } from "@remix-run/server-runtime";
import cookieSignature from "cookie-signature";
import { keptByKey } from "~/kept";

// The site's cookies are @remix-run/node's, signed as it signs them (cookie-signature's HMAC-SHA256),
// with one difference: a signed value that has passed its check is remembered, so the next request
// carrying the very same value is not checked again. A buyer's every request carries the same
// session, CSRF and basket cookies, and the check (an HMAC set up and run for each cookie and
// secret) was 2% of a checkout page's CPU (issue 19). Only values that passed are kept: a forged
// or stale one is checked, and refused, every time, and cannot push a genuine one out.

/** How many checked values are kept, per secret; past that the least recently used go first. */
const KEPT_PER_SECRET = 20_000;

const passedBySecret = new Map<string, ReturnType<typeof keptByKey<string>>>();

async function sign(value: string, secret: string): Promise<string> {
  return cookieSignature.sign(value, secret);
}

async function unsign(signed: string, secret: string): Promise<string | false> {
  let passed = passedBySecret.get(secret);
  if (!passed) {
    passed = keptByKey<string>(KEPT_PER_SECRET);
    passedBySecret.set(secret, passed);
  }
  // A value that fails is not kept (make answers undefined), so it is checked again each time.
  return (
    passed.get(signed, () => {
      const value = cookieSignature.unsign(signed, secret);
      return value === false ? undefined : value;
    }) ?? false
  );
}

export const createCookie = createCookieFactory({ sign, unsign });
export const createCookieSessionStorage = createCookieSessionStorageFactory(createCookie);
