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
    ["components import no .server module", "app/components/x.tsx", 'import { x } from "~/i18n/i18n.server";'],
    ["components do not reach the web layer", "app/components/x.tsx", 'import { x } from "~/web/refusals";'],
    [
      "components read views, not the domain",
      "app/components/x.tsx",
      'import type { x } from "~/ticketing/sale-window";',
    ],
    ["components read no payments code", "app/components/x.tsx", 'import { x } from "~/payments/gateway";'],
    ["the domain knows no Remix", "app/ticketing/x.ts", 'import { x } from "@remix-run/node";'],
    ["the domain imports no service", "app/payments/x.ts", 'import { x } from "~/use-cases/tracker.server";'],
    ["the domain imports no web code", "app/ticketing/x.ts", 'import { x } from "~/web/session.server";'],
    ["the store imports nothing above it", "app/db/x.ts", 'import { x } from "~/ticketing/sale-window";'],
    ["services do not call the web layer", "app/use-cases/x.server.ts", 'import { x } from "~/web/track.server";'],
    ["shared modules import no component", "app/forms/x.ts", 'import { x } from "~/components/error-summary";'],
    ["a view does not read the domain", "app/views/x.ts", 'import type { x } from "~/ticketing/pricing";'],
    [
      "a form does not read the payments domain",
      "app/forms/checkout/x.ts",
      'import type { x } from "~/payments/gateway";',
    ],
    [
      "the web layer imports no composition module",
      "app/web/x.server.ts",
      'import type { x } from "~/composition/context";',
    ],
    ["nor the composition's builder", "app/web/x.server.ts", 'import { x } from "~/composition/app-services.server";'],
    ["no folder is reached with ../", "app/web/x.server.ts", 'import { x } from "../db/schema";'],
  ])("%s", async (_, filePath, line) => {
    expect(await refusals(filePath, line)).toHaveLength(1);
  });

  it.each([
    ["a route calls a service", "app/routes/x.tsx", 'import { x } from "~/use-cases/tracker.server";'],
    ["a component reads a view type", "app/components/x.tsx", 'import type { x } from "~/views/hold";'],
    ["a component reads the seat map view", "app/components/x.tsx", 'import { x } from "~/views/seat-map";'],
    ["a view reads another shared module", "app/views/x.ts", 'import { x } from "~/i18n/format";'],
    ["the domain reads a shared shape", "app/payments/x.ts", 'import type { x } from "~/forms/checkout/card-types";'],
    ["the web layer reads the request context", "app/web/x.server.ts", 'import type { x } from "~/web/context";'],
    [
      "the composition builds the request context",
      "app/composition/x.server.ts",
      'import type { x } from "~/web/context";',
    ],
    ["a service reads the domain", "app/use-cases/x.server.ts", 'import type { x } from "~/ticketing/pricing";'],
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
