// Compiles the server's entry and the operator commands to JavaScript in build/, so the container
// runs them with plain node: no tsx (which needs a writable /tmp, against a read-only root
// filesystem), no TypeScript and no app/ sources in the image (issue 17 item 3). Packages stay
// external: the image carries node_modules pruned to production dependencies.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

await build({
  absWorkingDir: root,
  entryPoints: {
    server: "server.ts",
    "scripts/migrate": "scripts/migrate.ts",
    "scripts/catalogue-import": "scripts/catalogue-import.ts",
    "scripts/refund": "scripts/refund.ts",
    "scripts/vouchers": "scripts/vouchers.ts",
    "scripts/staff": "scripts/staff.ts",
  },
  outdir: "build/server",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  // Every package stays external; `~/` (tsconfig's alias for app/) is ours, and bundled.
  plugins: [
    {
      name: "packages-external",
      setup(builder) {
        builder.onResolve({ filter: /^[^./~]/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});
console.log("server and operator commands compiled to build/server/");
