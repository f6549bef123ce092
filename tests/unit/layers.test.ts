import { readdirSync } from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer rules of eslint.config.js (decision 0023) refuse what design.md forbids: each case is
// a one-line module in a layer's folder importing what that layer may not, and one that it may.

const eslint = new ESLint();

async function refusals(filePath: string, line: string) {
  const [result] = await eslint.lintText(`${line}\nexport const used = [x];\n`, { filePath });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("layers", () => {
  it.each([
    ["routes never reach the store", "app/routes/x.tsx", 'import { x } from "~/db/connection.server";'],
    [
      "components import no .server module",
      "app/components/x.tsx",
      'import { x } from "~/ticketing/inventory.server";',
    ],
    ["components do not reach the web layer", "app/components/x.tsx", 'import { x } from "~/web/refusals";'],
    ["the domain knows no Remix", "app/ticketing/x.ts", 'import { x } from "@remix-run/node";'],
    ["the domain imports no service", "app/payments/x.ts", 'import { x } from "~/services/tracker.server";'],
    ["the domain imports no web code", "app/ticketing/x.ts", 'import { x } from "~/web/session.server";'],
    ["the store imports nothing above it", "app/db/x.ts", 'import { x } from "~/ticketing/sale-window";'],
    ["services do not call the web layer", "app/services/x.server.ts", 'import { x } from "~/web/track.server";'],
    ["shared modules import no component", "app/forms/x.ts", 'import { x } from "~/components/error-summary";'],
    ["no folder is reached with ../", "app/web/x.server.ts", 'import { x } from "../db/schema";'],
  ])("%s", async (_, filePath, line) => {
    expect(await refusals(filePath, line)).toHaveLength(1);
  });

  it.each([
    ["a route calls a service", "app/routes/x.tsx", 'import { x } from "~/services/tracker.server";'],
    ["a component reads a view type", "app/components/x.tsx", 'import type { x } from "~/views/hold";'],
    ["the domain reads the store and the clock", "app/ticketing/x.ts", 'import { x } from "~/db/schema";'],
    ["the store reads the clock", "app/db/x.ts", 'import { x } from "~/clock";'],
  ])("allows: %s", async (_, filePath, line) => {
    expect(await refusals(filePath, line)).toEqual([]);
  });

  it("every module of app/ belongs to a layer", async () => {
    const modules = readdirSync("app", { recursive: true, encoding: "utf8" }).filter((path) =>
      /\.(ts|tsx|js)$/.test(path),
    );
    const unchecked: string[] = [];
    for (const path of modules) {
      const config = (await eslint.calculateConfigForFile(`app/${path}`)) as { rules?: Record<string, unknown> };
      if (!config.rules?.["no-restricted-imports"]) unchecked.push(path);
    }
    expect(modules.length).toBeGreaterThan(100);
    expect(unchecked).toEqual([]);
  });
});
