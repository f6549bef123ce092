import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: [
      "tests/unit/**/*.test.{ts,tsx}",
      "tests/store/**/*.test.ts",
      "tests/routes/**/*.test.{ts,tsx}",
      "tests/journeys/**/*.test.ts",
    ],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    setupFiles: ["tests/setup.ts"],
    environment: "node",
    restoreMocks: true,
    // The JSON report feeds the summary line .ci/run prints.
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
  },
});
