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
      // Against the providers' real test-mode APIs, only when keys are given (README, "Taking real payments").
      "tests/contract/**/*.test.ts",
    ],
    testTimeout: 20_000,
    // Every core: vitest's default leaves one idle, which on CI's two cores means one file at a
    // time. The tests wait on servers and databases as much as they compute.
    maxWorkers: "100%",
    hookTimeout: 60_000,
    setupFiles: ["tests/setup.ts"],
    environment: "node",
    restoreMocks: true,
    // The JSON report feeds the summary line .ci/run prints.
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
  },
});
