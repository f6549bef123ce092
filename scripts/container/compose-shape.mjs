// compose.yaml as `docker compose config` would read it, for scripts/compose-by-hand.sh on machines
// with no compose tool: YAML anchors resolved and ${VAR}, ${VAR:-default}, ${VAR:?message} filled in
// from the environment, so the script runs what compose.yaml says rather than a copy that drifts.
//
//   node scripts/container/compose-shape.mjs compose.yaml services          db migrate app×2 proxy
//   node scripts/container/compose-shape.mjs compose.yaml env SERVICE       KEY=VALUE, one a line
//   node scripts/container/compose-shape.mjs compose.yaml get PATH.TO.KEY   a value, or a list one a line
//
// A variable compose would refuse (`:?`) is an error here too (exit 1, compose's message).
import { readFileSync } from "node:fs";
import { parse } from "yaml";

const [file, query, argument] = process.argv.slice(2);
function fail(message) {
  process.stderr.write(`compose-shape: ${message}\n`);
  process.exit(1);
}
if (!file || !query) fail("usage: compose-shape.mjs FILE services | env SERVICE | get PATH");

// Compose's interpolation: `$$` is a dollar; `:-`/`:?` treat an empty variable as unset, `-`/`?` do not.
function interpolate(text) {
  return text.replace(
    /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, braced, operator, argument, bare) => {
      if (whole === "$$") return "$";
      const name = braced ?? bare;
      const value = process.env[name];
      const unset = operator?.startsWith(":") ? !value : value === undefined;
      if (operator?.endsWith("-")) return unset ? argument : value;
      if (operator?.endsWith("?") && unset) fail(`required variable ${name} is missing a value: ${argument}`);
      return value ?? "";
    },
  );
}
function resolve(node) {
  if (typeof node === "string") return interpolate(node);
  if (Array.isArray(node)) return node.map(resolve);
  if (node && typeof node === "object")
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolve(v)]));
  return node;
}

const compose = resolve(parse(readFileSync(file, "utf8"), { merge: true }));
const services = compose.services ?? fail(`${file} has no services`);
const lines = (values) => process.stdout.write(values.map((value) => `${value}\n`).join(""));

if (query === "services") {
  lines([
    Object.entries(services)
      .map(([name, service]) => (service.deploy?.replicas > 1 ? `${name}×${service.deploy.replicas}` : name))
      .join(" "),
  ]);
} else if (query === "env") {
  const environment = services[argument]?.environment ?? fail(`no service ${argument} with an environment`);
  // A map (KEY: value) or a list ("KEY=value"); a key without a value takes the caller's.
  const pairs = Array.isArray(environment)
    ? environment.map((entry) => (entry.includes("=") ? entry : `${entry}=${process.env[entry] ?? ""}`))
    : Object.entries(environment).map(([key, value]) => `${key}=${value ?? process.env[key] ?? ""}`);
  lines(pairs);
} else if (query === "get") {
  let value = compose;
  for (const key of (argument ?? "").split(".")) value = value?.[key];
  if (value === undefined || value === null) fail(`${file} has no ${argument}`);
  lines(Array.isArray(value) ? value : [typeof value === "object" ? JSON.stringify(value) : value]);
} else {
  fail(`unknown query ${query}`);
}
