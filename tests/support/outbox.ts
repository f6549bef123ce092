import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { ROOT } from "./app";
import type { DemoServer } from "./demo-journey";
import type { Store } from "~/db/connection.server";
import type { buyerBrowser } from "./browser";

/** Quoted-printable undone (soft line breaks, =XX bytes), so a phrase is found whole. */
export function unquote(mail: string) {
  return decodeURIComponent(
    mail
      .replace(/=\r?\n/g, "")
      .replace(/%/g, "%25")
      .replace(/=([0-9A-F]{2})/g, "%$1"),
  );
}

/**
 * The one email that names this order number, as it left: with no SMTP server, a file in
 * DATA_DIR/outbox. Delivery starts on its own once the order is paid; this waits for that run (or
 * makes it).
 */
export async function sentMail(server: DemoServer, number: string) {
  await server.services.outbox.deliverDue();
  const dir = resolve(ROOT, server.services.config.dataDir, "outbox");
  const mails = readdirSync(dir)
    .filter((name) => name.endsWith(".eml"))
    .map((name) => unquote(readFileSync(join(dir, name), "utf8")))
    .filter((mail) => mail.includes(number));
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

/** Every email (of this kind) queued to this address, as the server queued it (email_outbox rows). */
export async function emailsTo(services: { store: Store }, to: string, kind?: string) {
  let query = services.store.db.selectFrom("email_outbox").selectAll().where("to_address", "=", to);
  if (kind) query = query.where("kind", "=", kind);
  return query.execute();
}

/**
 * The path of the link in the one email of this kind to this address, as the server queued it
 * (before delivery): what the address's owner would open. Exactly one such email, or the test fails.
 */
export async function emailedLink(services: { store: Store }, to: string, kind: string): Promise<string> {
  const mails = await emailsTo(services, to, kind);
  expect(mails, `one ${kind} email to ${to}`).toHaveLength(1);
  const link = /https?:\/\/[^/\s]+(\/account\/[\w/-]+)/.exec(mails[0]!.text_body)?.[1];
  expect(link, `a link in the ${kind} email to ${to}`).toBeDefined();
  return link!;
}

/**
 * Registers as a browser without script does: the registration form, then the emailed link with
 * a password. The link's answer: a 303 to `redirectTo`, or to My account saying the account was made.
 */
export async function registerByEmail(
  buyer: ReturnType<typeof buyerBrowser>,
  services: { store: Store },
  who: { firstName: string; lastName: string; email: string },
  password: string,
  redirectTo = "",
): Promise<Response> {
  const asked = await buyer.post("/account/register", { ...who, redirectTo });
  expect(asked.status).toBe(303);
  expect(asked.headers.get("Location")).toBe("/account/register?sent");
  const made = await buyer.post(await emailedLink(services, who.email.trim(), "signUpLink"), { password });
  expect(made.status).toBe(303);
  return made;
}
