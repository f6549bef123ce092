import type { NextFunction, Request, Response } from "express";

/**
 * The address a request came from: the one every per-address limit counts by (waiting-room joins,
 * sign-in, registration, password resets, voucher codes), handed to pages as
 * `context.clientAddress`. Express's `req.ip` under TRUST_PROXY: the socket's peer, or, when that
 * peer is a proxy TRUST_PROXY trusts, the address read from the right of X-Forwarded-For past the
 * trusted hops: what the outermost trusted proxy saw, never an entry the client wrote itself.
 */
export function clientAddress(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? "unknown";
}

/** Whether the request's peer is a proxy TRUST_PROXY trusts, so its X-Forwarded-* headers are its word. */
export function fromTrustedProxy(req: Request): boolean {
  const trusted = req.app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  return trusted(req.socket.remoteAddress ?? "", 0);
}

/**
 * Drops an X-Forwarded-Host no trusted proxy set, before anything reads it: Express already
 * ignores it then, but Remix's own Origin check and its request URL's port believe it from
 * anyone, and so would the site's form check (`sameOriginForms`).
 */
export function forwardedHostFromTrustedProxiesOnly(req: Request, _res: Response, next: NextFunction) {
  if (req.headers["x-forwarded-host"] !== undefined && !fromTrustedProxy(req)) delete req.headers["x-forwarded-host"];
  next();
}
