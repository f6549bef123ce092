// `node --import tsx scripts/seat-map-size.ts [--preview FILE]`: what the seat map of the largest
// demo house (Regent Palace, 2,341 seats) costs the tickets page: server render time of <SeatMap>
// (p50/p95 over 50 renders), its HTML, and the view the page carries for hydration, raw and
// gzipped. --preview writes a standalone page (map and key, default theme) to look at.
// A script that prints figures, not a test: nothing here passes or fails on time.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance as perf } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { createInstance } from "i18next";
import { encode } from "turbo-stream";
import { fixedClock } from "~/clock";
import { createScratchStore } from "~/db/scratch-store.server";
import { readLocaleFiles } from "~/i18n/i18n.server";
import { sharedI18nextOptions } from "~/i18n/languages";
import { loadDemoCatalogue } from "~/ticketing/demo.server";
import { GUEST } from "~/ticketing/inventory.server";
import { createSeatMaps } from "~/ticketing/seat-map.server";

// React's development build renders several times slower; the server runs the production one.
// React reads NODE_ENV when it is first loaded, so it is loaded after this line.
process.env.NODE_ENV ??= "production";
const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { I18nextProvider, initReactI18next } = await import("react-i18next");
const { SeatMap } = await import("~/components/seat-map");

const root = join(import.meta.dirname, "..");
const WARM_UP = 10;
const RENDERS = 50;
const clock = fixedClock("2026-11-23T10:00:00.000Z");

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzip = (text: string) => gzipSync(text, { level: 6 }).length;

async function turboStream(value: unknown) {
  const reader = encode(value).getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) return text + decoder.decode();
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
}

const store = await createScratchStore("sqlite");
try {
  process.stdout.write("loading the demo catalogue… ");
  await loadDemoCatalogue(store, clock, root);
  console.log("done");
  const performances = await store.db
    .selectFrom("performances")
    .innerJoin("runs", "runs.id", "performances.run_id")
    .innerJoin("titles", "titles.id", "runs.title_id")
    .select("performances.id")
    .where("titles.slug", "=", "the-lantern-keeper")
    .orderBy("performances.starts_at")
    .execute();

  const files = readLocaleFiles(join(root, "locales"));
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    ...sharedI18nextOptions("en-GB", "regent-palace"),
    resources: files.resources,
    initImmediate: false,
  });
  const seatMaps = createSeatMaps(store, clock);

  // The first performance has nothing sold; the ninth is 60% sold.
  for (const [label, index] of [
    ["nothing sold", 1],
    ["60% sold", 8],
  ] as const) {
    const viewTimes: number[] = [];
    let view;
    for (let run = 0; run < RENDERS; run += 1) {
      const start = perf.now();
      view = await seatMaps.view({
        performanceId: performances[index]!.id,
        basketId: null,
        entitlements: GUEST,
        filter: {},
      });
      viewTimes.push(perf.now() - start);
    }
    const element = createElement(I18nextProvider, { i18n }, createElement(SeatMap, { view: view! }));
    const times: number[] = [];
    let html = "";
    // A running server renders warm: the first renders, while the JIT compiles, are not counted.
    for (let run = 0; run < WARM_UP; run += 1) renderToString(element);
    for (let run = 0; run < RENDERS; run += 1) {
      const start = perf.now();
      html = renderToString(element);
      times.push(perf.now() - start);
    }
    const json = JSON.stringify(view);
    const stream = await turboStream(view);
    const seats = (html.match(/<input/g) ?? []).length;
    console.log(`\nRegent Palace, ${seats} seats, ${label} (NODE_ENV=${process.env.NODE_ENV})`);
    console.log(
      `  view (read model): p50 ${percentile(viewTimes, 50).toFixed(2)} ms, p95 ${percentile(viewTimes, 95).toFixed(2)} ms`,
    );
    console.log(
      `  render <SeatMap>:  p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
    );
    console.log(`  HTML:              ${kb(html.length)} raw, ${kb(gzip(html))} gzipped`);
    console.log(`  view JSON:         ${kb(json.length)} raw, ${kb(gzip(json))} gzipped`);
    console.log(
      `  view turbo-stream: ${kb(stream.length)} raw, ${kb(gzip(stream))} gzipped (what Remix single fetch inlines)`,
    );
    // In the page the view sits in a <script> after the HTML: gzip sees both in one stream.
    console.log(`  HTML + JSON:       ${kb(gzip(html + json))} gzipped together`);
    console.log(`  HTML + stream:     ${kb(gzip(html + stream))} gzipped together`);

    const previewAt = process.argv.indexOf("--preview");
    if (previewAt > 0 && index === 8) {
      const css = readFileSync(join(root, "app/styles/generated/default.css"), "utf8");
      writeFileSync(
        process.argv[previewAt + 1]!,
        `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Seat map</title><style>${css}</style></head><body><main class="page"><form>${html}</form></main></body></html>`,
      );
    }
  }
} finally {
  await store.drop();
}
