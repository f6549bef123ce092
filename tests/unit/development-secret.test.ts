import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCookie } from "~/web/cookies.server";
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_SECRET_FILE, developmentSessionSecret } from "~/config/development-secret.server";
import { testDataDir, testServices } from "../support/app";

const folder = () => mkdtempSync(join(tmpdir(), "box-office-secret-"));

// Issue 53: development signed cookies with a secret written in the source, and so did staging.
describe("development's own session secret", () => {
  it("is made at random on a data folder's first start, kept there for its owner alone, and read back after", () => {
    const dir = join(folder(), "data");
    const made = developmentSessionSecret(dir);
    expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = join(dir, DEVELOPMENT_SECRET_FILE);
    expect(readFileSync(file, "utf8").trim()).toBe(made);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(developmentSessionSecret(dir)).toBe(made);
  });

  it("differs between data folders", () => {
    const secrets = new Set([folder(), folder(), folder()].map(developmentSessionSecret));
    expect(secrets.size).toBe(3);
  });

  it("refuses a kept file too short to be a secret, saying how to mend it", () => {
    const dir = folder();
    writeFileSync(join(dir, DEVELOPMENT_SECRET_FILE), "short\n");
    expect(() => developmentSessionSecret(dir)).toThrow(/delete it, and a new one is made/);
  });

  it("signs the site's cookies, so a development session survives a restart and no other folder's site reads it", async () => {
    const dataDir = testDataDir();
    const development = { APP_ENV: "development", SESSION_SECRET: undefined, DATA_DIR: dataDir };
    const first = await testServices(development);
    const session = await first.sessions.getSession(new Request("http://localhost/"));
    session.set("visitorId", "visitor-1");
    const cookie = (await first.sessions.commitSession(session)).split(";")[0]!;
    await first.close();
    expect(first.config.sessionSecrets).toEqual([readFileSync(join(dataDir, DEVELOPMENT_SECRET_FILE), "utf8").trim()]);

    const restarted = await testServices(development);
    const other = await testServices({ ...development, DATA_DIR: testDataDir() });
    try {
      expect(restarted.config.sessionSecrets).toEqual(first.config.sessionSecrets);
      const read = (services: typeof first, value = cookie) =>
        services.sessions.getSession(new Request("http://localhost/", { headers: { Cookie: value } }));
      expect((await read(restarted)).get("visitorId")).toBe("visitor-1");
      expect(other.config.sessionSecrets).not.toEqual(first.config.sessionSecrets);
      expect((await read(other)).get("visitorId")).toBeUndefined();

      // A session signed as the site signs them, with the constant the source used to hold, is
      // nobody's; signed with the folder's own secret, the same one is read.
      const signedWith = async (secret: string) =>
        (await createCookie("session", { path: "/", secrets: [secret] }).serialize({ visitorId: "forged" })).split(
          ";",
        )[0]!;
      const forged = await signedWith("development-only-secret-change-me-0123456789");
      expect((await read(restarted, forged)).get("visitorId")).toBeUndefined();
      const genuine = await signedWith(restarted.config.sessionSecrets[0]!);
      expect((await read(restarted, genuine)).get("visitorId")).toBe("forged");
    } finally {
      await restarted.close();
      await other.close();
    }
  });
});
