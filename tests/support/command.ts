import { spawn } from "node:child_process";
import { once } from "node:events";
import { ROOT } from "./app";

/**
 * Runs an operator's command (`scripts/NAME.ts`) as the operator does: a process of its own, in
 * production mode, over the site's data folder, with no other environment than `env` gives it,
 * and `input` on its standard input (then closed, as a pipe's is).
 */
export async function runCommand(script: string, args: string[], env: Record<string, string>, input = "") {
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env },
  });
  // A command that exits without reading its input closes the pipe: that is no failure of the test's.
  child.stdin.on("error", () => {});
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += String(chunk)));
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const [code] = (await once(child, "exit")) as [number];
  return { code, stdout, stderr };
}
