import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { ROOT } from "./app";
import type { DemoServer } from "./demo-journey";

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
