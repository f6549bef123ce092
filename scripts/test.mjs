// `npm test`: every check the project has, in order, stopping at the first that fails, and the
// seconds each phase took (CI's time per landing is watched: a slow phase should be seen, not
// guessed). The phase times also go to reports/phases.json for .ci/run's summary.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";

const PHASES = [
  ["typecheck", ["run", "typecheck"]],
  ["lint", ["run", "lint"]],
  ["build", ["run", "build"]],
  ["vitest", ["run", "test:unit"]],
  ["HTML journeys", ["run", "test:journeys"]],
  ["playwright", ["run", "test:e2e"]],
];

const times = [];
let status = 0;
for (const [name, args] of PHASES) {
  const started = Date.now();
  const result = spawnSync("npm", args, { stdio: "inherit" });
  times.push({ phase: name, seconds: Math.round((Date.now() - started) / 100) / 10 });
  status = result.status ?? 1;
  if (status !== 0) {
    console.error(`npm test: ${name} failed`);
    break;
  }
}
mkdirSync("reports", { recursive: true });
writeFileSync("reports/phases.json", JSON.stringify(times, null, 2));
console.log(`phases: ${times.map(({ phase, seconds }) => `${phase} ${seconds} s`).join(", ")}`);
process.exit(status);
