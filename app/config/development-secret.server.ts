import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SESSION_SECRET_MIN_LENGTH } from "./env.server";

/** Where in DATA_DIR development keeps the secret it made. */
export const DEVELOPMENT_SECRET_FILE = "session-secret";

/**
 * Development's cookie-signing secret when SESSION_SECRET is unset: random, made on the data
 * folder's first start and kept there, readable by its owner alone, so a developer's sessions
 * survive a restart while no two folders share one, and nobody who has read the source can sign
 * a cookie (issue 53). Processes starting together on one folder agree: the file appears whole,
 * under its name, once, and whoever came second reads the first one's.
 */
export function developmentSessionSecret(dataDir: string): string {
  const file = join(dataDir, DEVELOPMENT_SECRET_FILE);
  const kept = readSecret(file);
  if (kept !== undefined) return kept;
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(draft, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(draft);
  }
  return readSecret(file)!;
}

function readSecret(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const secret = text.trim();
  if (secret.length < SESSION_SECRET_MIN_LENGTH)
    throw new Error(
      `${file} holds no secret of ${SESSION_SECRET_MIN_LENGTH} characters or more: delete it, and a new one is made`,
    );
  return secret;
}
