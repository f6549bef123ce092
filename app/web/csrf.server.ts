import { timingSafeEqual } from "node:crypto";
import type { Cookie } from "@remix-run/node";
import { parseCookie } from "cookie";
import { REFUSED_FORM } from "~/views/refusals";
import { randomBytesFromPool } from "./random-tokens.server";

// Double-submit CSRF (decision 0002): a random token in a signed HttpOnly cookie, and the same
// token in every form. The page carries it masked with a pad drawn for each response, as Django
// and Rails do: a compressed page that also reflects what a visitor typed must not let whoever
// sees its length guess the token a byte at a time (BREACH). Only values of the exact shapes the
// site makes are read at all: anything else in the cookie is as good as no cookie (issue 37).

const TOKEN_BYTES = 32;

/** The form field that carries the masked token (AuthenticityTokenInput's default name). */
export const CSRF_FIELD = "csrf";

/**
 * The bytes `value` encodes if it is exactly what base64url makes of `length` bytes, else
 * undefined. Re-encoded and compared because Node's decoder skips characters it does not know
 * and ignores the last character's spare bits: two spellings of the same bytes would both pass.
 */
function exactBase64url(value: unknown, length: number): Buffer | undefined {
  if (typeof value !== "string" || value.length !== Math.ceil((length * 4) / 3)) return undefined;
  const bytes = Buffer.from(value, "base64url");
  return bytes.length === length && bytes.toString("base64url") === value ? bytes : undefined;
}

/** base64url(pad ‖ (pad XOR token)), with a fresh pad: a page never carries the token as it is. */
export function maskCsrfToken(token: Buffer): string {
  const pad = randomBytesFromPool(TOKEN_BYTES);
  const masked = Buffer.allocUnsafe(TOKEN_BYTES * 2);
  for (let i = 0; i < TOKEN_BYTES; i++) {
    masked[i] = pad[i]!;
    masked[TOKEN_BYTES + i] = pad[i]! ^ token[i]!;
  }
  return masked.toString("base64url");
}

/** The token a value from a form carries, if it is shaped exactly as maskCsrfToken makes them. */
export function unmaskCsrfToken(masked: unknown): Buffer | undefined {
  const bytes = exactBase64url(masked, TOKEN_BYTES * 2);
  if (!bytes) return undefined;
  const token = Buffer.allocUnsafe(TOKEN_BYTES);
  for (let i = 0; i < TOKEN_BYTES; i++) token[i] = bytes[i]! ^ bytes[TOKEN_BYTES + i]!;
  return token;
}

const forbidden = () => new Response(null, { status: 403, statusText: "Forbidden" });

/** The buyer's CSRF token, kept in `cookie` (signed, HttpOnly). */
export function csrfTokens(cookie: Cookie) {
  const held = async (cookieHeader: string | null) => exactBase64url(await cookie.parse(cookieHeader), TOKEN_BYTES);
  return {
    /**
     * The value this response's page carries, and the Set-Cookie header to send when the buyer
     * has no token the site would have made (none, or one that fails its check or its shape).
     */
    async commitToken(request: Request): Promise<[masked: string, setCookie: string | null]> {
      const token = await held(request.headers.get("Cookie"));
      if (token) return [maskCsrfToken(token), null];
      const fresh = randomBytesFromPool(TOKEN_BYTES);
      return [maskCsrfToken(fresh), await cookie.serialize(fresh.toString("base64url"))];
    },

    /**
     * Throws a 403 response unless the form carries the buyer's token, masked as a page of ours
     * carries it. Reads a clone of the body, so the action can still read the original.
     */
    async verify(request: Request): Promise<void> {
      let carried: FormDataEntryValue | null;
      try {
        carried = (await request.clone().formData()).get(CSRF_FIELD);
      } catch (error) {
        // A body that is not a form at all (JSON, garbage) has no token either.
        if (error instanceof TypeError) throw forbidden();
        throw error;
      }
      const cookieHeader = request.headers.get("Cookie");
      const token = await held(cookieHeader);
      if (!token) {
        // Our own form (it carries a token) and no CSRF cookie at all: the browser refuses cookies,
        // or has dropped them. Saying "the form expired" would send the buyer round the same loop;
        // the page says cookies are needed and how to allow them. A cookie that was sent but
        // refused (an old secret's, a forgery) is not that: reloading the page mends it.
        const sentCookie = cookieHeader !== null && parseCookie(cookieHeader)[cookie.name] !== undefined;
        if (typeof carried === "string" && carried !== "" && !sentCookie) {
          throw new Response(REFUSED_FORM.noCookies, { status: 403, statusText: "Forbidden" });
        }
        throw forbidden();
      }
      const unmasked = unmaskCsrfToken(carried);
      if (!unmasked || !timingSafeEqual(unmasked, token)) throw forbidden();
    },
  };
}
