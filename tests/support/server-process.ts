import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, TEST_SECRET } from "./app";

/**
 * server.ts as its own process, as an operator runs it (the production build: `npm run build`
 * first). Several of them given one DATA_DIR or DATABASE_URL are several servers sharing one
 * database. Resolves once it listens.
 */
export async function startServerProcess(env: Record<string, string> = {}) {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      APP_ENV: "test",
      LOG_LEVEL: "info",
      SESSION_SECRET: TEST_SECRET,
      DATA_DIR: mkdtempSync(join(tmpdir(), "box-office-process-")),
      DEMO_CATALOGUE: "off",
      PORT: "0",
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
  const listening = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${stderr}`)), 30_000);
    const check = () => {
      const line = stdout.split("\n").find((candidate) => candidate.includes('"msg":"listening"'));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${stderr}${stdout}`));
    });
  });
  const port = Number(/"port":(\d+)/.exec(listening)?.[1]);
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    output: () => ({ stdout, stderr }),
    /** SIGTERM, and waits for the exit: its exit code (0 for a clean shutdown). */
    async stop(): Promise<number | null> {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      return code;
    },
    /** kill -9: no shutdown, nothing finished. */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGKILL");
      await exited;
    },
  };
}
