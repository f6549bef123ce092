import { createCookieFactory, createCookieSessionStorageFactory } from "@remix-run/server-runtime";
import cookieSignature from "cookie-signature";

async function sign(value: string, secret: string): Promise<string> {
  return cookieSignature.sign(value, secret);
}

async function unsign(signed: string, secret: string): Promise<string | false> {
  return cookieSignature.unsign(signed, secret);
}

export const createCookie = createCookieFactory({ sign, unsign });
export const createCookieSessionStorage = createCookieSessionStorageFactory(createCookie);
