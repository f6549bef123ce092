// Development: build once, then rebuild the stylesheets (sass) and the app (remix watch) as files
// change, and restart the server when its code or the build changes.
import { spawn, spawnSync } from "node:child_process";

const run = (command, args, env = {}) => spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });

const first = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
if (first.status !== 0) process.exit(first.status ?? 1);

const children = [
  run("node", ["scripts/build-assets.mjs", "--watch"]),
  run("npx", ["remix", "watch"], { VITE_CJS_IGNORE_WARNING: "true" }),
  run("node", ["--watch", "--import", "tsx", "server.ts"], { NODE_ENV: "development" }),
];

const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
