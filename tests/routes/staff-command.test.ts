import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import { afterAll, describe, expect, it } from "vitest";
import { systemClock } from "~/clock";
import { openSqlite, SQLITE_FILE_NAME } from "~/db/connection.server";
import { createStaff } from "~/use-cases/staff.server";
import { runCommand } from "../support/command";

// `npm run staff` as the operator runs it: a process of its own over the site's SQLite file, with
// nothing but the data folder, the password from STAFF_PASSWORD or standard input, and its exit
// codes (0 done, 1 refused, 2 bad usage).

const PASSWORD = "a long enough passphrase";

describe("the staff command", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "box-office-staff-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string> = {}, input = "") =>
    runCommand("staff", args, { DATA_DIR: dataDir, ...env }, input);
  const add = (email: string, role: string, env: Record<string, string> = { STAFF_PASSWORD: PASSWORD }, input = "") =>
    run(["add", "--email", email, "--name", "Jo Bloggs", "--role", role], env, input);

  /** Signs in as the site would, against the command's database. */
  async function signIn(email: string, password: string, code: string | null = null) {
    const store = openSqlite(join(dataDir, SQLITE_FILE_NAME));
    try {
      return await createStaff(store, systemClock).signIn({ email, password, code, address: "192.0.2.1" });
    } finally {
      await store.close();
    }
  }

  it("says what is wrong, exit code 2, when asked for nothing it knows", async () => {
    const cases: [string[], string][] = [
      [[], "Usage: npm run staff -- add --email EMAIL --name NAME --role door|box-office|manager"],
      [["hire", "--email", "jo@example.com"], 'Unknown command "hire".'],
      [["add", "--email", "jo@example.com", "--name", "Jo"], "--role is missing."],
      [
        ["add", "--email", "jo@example.com", "--name", "Jo", "--role", "usher"],
        'Unknown role "usher": door, box-office or manager.',
      ],
      [["remove"], "--email is missing."],
      [["list", "--email", "jo@example.com"], "Unknown option '--email'"],
      [
        ["add", "--email", "jo@example.com", "--name", "Jo", "--role", "door", "--password", PASSWORD],
        "A password is never given on the command line",
      ],
    ];
    // Two at a time: each is a process of its own.
    const answers = [];
    for (let start = 0; start < cases.length; start += 2)
      answers.push(
        ...(await Promise.all(cases.slice(start, start + 2).map(([args]) => run(args, { STAFF_PASSWORD: PASSWORD })))),
      );
    for (const [index, [args, message]] of cases.entries()) {
      const answer = answers[index]!;
      expect(answer.code, args.join(" ")).toBe(2);
      expect(answer.stderr, args.join(" ")).toContain(message);
      expect(answer.stdout).toBe("");
    }
  }, 120_000);

  it("adds box office with a code to set up, refuses a duplicate and a short password, lists and removes", async () => {
    const added = await add("Jo.Bloggs@example.com", "box-office");
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toContain("Added Jo Bloggs <jo.bloggs@example.com>, box-office.");
    const uri = /otpauth:\/\/totp\/\S+/.exec(added.stdout)?.[0];
    const secret = /^ {2}([A-Z2-7]{32})$/m.exec(added.stdout)?.[1];
    expect(uri).toContain(`secret=${secret}`);
    // The app set up from what was printed gives codes the site takes.
    const code = new TOTP({ secret: Secret.fromBase32(secret!) }).generate();
    expect(await signIn("jo.bloggs@example.com", PASSWORD)).toEqual({ ok: false, reason: "codeNeeded" });
    expect(await signIn("jo.bloggs@example.com", PASSWORD, code)).toMatchObject({ ok: true });

    const duplicate = await add("JO.BLOGGS@example.com", "door");
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain("A member of staff already has the email JO.BLOGGS@example.com");
    const short = await add("sam@example.com", "door", { STAFF_PASSWORD: "eleven char" });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("The password is too short: at least 12 characters");

    const listed = await run(["list"]);
    expect(listed).toMatchObject({ code: 0, stderr: "" });
    expect(listed.stdout).toMatch(
      /Staff \(1\):\n {2}jo\.bloggs@example\.com {2}Jo Bloggs {2}box-office {2}since \d{4}-\d\d-\d\d\n/,
    );

    const removed = await run(["remove", "--email", "jo.bloggs@example.com"]);
    expect(removed).toMatchObject({ code: 0, stderr: "" });
    expect(removed.stdout).toContain("Removed Jo Bloggs <jo.bloggs@example.com>, box-office: signed out everywhere.");
    const again = await run(["remove", "--email", "jo.bloggs@example.com"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("No current member of staff has the email jo.bloggs@example.com");
    expect((await run(["list"])).stdout).toContain("No staff yet");
  }, 120_000);

  it("takes the password from standard input's first line when STAFF_PASSWORD is unset; the door gets no code", async () => {
    const added = await add("door@example.com", "door", {}, `${PASSWORD}\nsomething else\n`);
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toContain("They sign in with the password alone");
    expect(added.stdout).not.toContain("otpauth://");
    expect(await signIn("door@example.com", PASSWORD)).toMatchObject({ ok: true });

    const empty = await add("nobody@example.com", "door", {}, "");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("The password is too short");
  }, 120_000);
});
