import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as request_, type IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/app";

function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      DATA_DIR: mkdtempSync(join(tmpdir(), "box-office-process-")),
      DEMO_CATALOGUE: "off",
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  return { child, output: () => ({ stdout, stderr }) };
}

describe("server.ts as a process", () => {
  it("refuses to start on a bad value, naming the variable", async () => {
    const { child, output } = startProcess({ THEME: "neon" });
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(output().stderr).toMatch(/^ {2}- THEME: /m);
  }, 30_000);

  // Issue 39: a production site that names no payment provider would take "payments" that are
  // no money (the sandbox): it does not start, and says which variable to set.
  it("refuses to start in production without PAYMENT_PROVIDER, naming it", async () => {
    const { child, output } = startProcess({ APP_ENV: "production", SESSION_SECRET: "s".repeat(40) });
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(output().stderr).toMatch(/^ {2}- PAYMENT_PROVIDER: is required when APP_ENV is production/m);
  }, 30_000);

  // Issue 53: staging started without one and signed every cookie with a secret written in the
  // source, so anyone who had read it could forge a session, an order's confirmation, a CSRF token.
  it("refuses to start in staging without SESSION_SECRET, naming it", async () => {
    const { child, output } = startProcess({ APP_ENV: "staging" });
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(output().stderr).toMatch(/^ {2}- SESSION_SECRET: is required when APP_ENV is staging$/m);
  }, 30_000);

  it("shuts down cleanly on SIGTERM, finishing the request in flight first", async () => {
    const { child, output } = startProcess({ PORT: "0" });
    await expect.poll(() => output().stdout, { timeout: 20_000 }).toContain('"msg":"listening"');
    const port = Number(/"port":(\d+)/.exec(output().stdout)?.[1]);

    // A form whose body is still arriving when the signal comes.
    const body = "csrf=abcdefghij";
    const request = request_({ host: "127.0.0.1", port, method: "POST", path: "/membership" });
    request.setHeader("Content-Type", "application/x-www-form-urlencoded");
    request.setHeader("Content-Length", String(body.length));
    request.write(body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill("SIGTERM");
    await expect.poll(() => output().stdout, { timeout: 5_000 }).toContain('"msg":"shutting down"');
    expect(child.exitCode).toBeNull();

    request.end(body.slice(5));
    const [response] = (await once(request, "response")) as [IncomingMessage];
    response.resume();
    expect(response.statusCode).toBe(403);
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    expect(output().stdout).toContain('"msg":"stopped"');
  }, 30_000);
});
