import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the browser suite, started before the tests (Playwright's globalSetup)
// and stopped after them: the app servers send their confirmation emails to it, and each message
// is written to a folder the journeys read.

export const MAIL_PORT = Number(process.env.E2E_PORT ?? 3210) + 2;
const MAIL_DIR_FILE = join(tmpdir(), `box-office-e2e-mail-${MAIL_PORT}`);

export default async function startMailServer() {
  const dir = mkdtempSync(join(tmpdir(), "box-office-e2e-mail-"));
  mkdirSync(dir, { recursive: true });
  writeFileSync(MAIL_DIR_FILE, dir);
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        count += 1;
        writeFileSync(join(dir, `${Date.now()}-${count}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(MAIL_PORT, "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** Every message received so far, as raw text. */
export function receivedMail(): string[] {
  const dir = readFileSync(MAIL_DIR_FILE, "utf8");
  return readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), "utf8"));
}
