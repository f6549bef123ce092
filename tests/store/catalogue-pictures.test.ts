// A show's poster and hero picture through the catalogue import (issue 40): made in every size and
// format, each with the width and height it says, under content-hashed names; refused, with the
// field named, when the alt text is missing, the file is not there, or the src is a URL.
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { createCatalogue } from "~/ticketing/catalogue.server";
import { importCatalogue } from "~/ticketing/import-catalogue.server";
import { smallCatalogue, problemsOf } from "../support/catalogue";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const clock = fixedClock("2026-11-23T10:00:00.000Z");

describe.each(DIALECTS)("pictures in the catalogue import on %s", (dialect) => {
  let store: TestStore;
  const folder = mkdtempSync(join(tmpdir(), "box-office-catalogue-"));
  const images = join(mkdtempSync(join(tmpdir(), "box-office-images-")), "images");
  const options = { pictures: { from: folder, to: images } };
  beforeAll(async () => {
    store = await createTestStore(dialect);
    // A raster poster 700 wide (so no 960 size: never enlarged) and a vector hero.
    await sharp({ create: { width: 700, height: 1050, channels: 3, background: "#204060" } })
      .png()
      .toFile(join(folder, "poster.png"));
    writeFileSync(
      join(folder, "hero.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900"><rect width="1600" height="900" fill="#802040"/></svg>',
    );
    writeFileSync(join(folder, "notes.txt"), "not a picture");
  });
  afterAll(() => store.drop());

  it("refuses a poster without alt text, a file that is not there or not a picture, and a URL, loading nothing", async () => {
    const file = smallCatalogue() as Record<string, unknown> & { shows: Record<string, unknown>[] };
    file.shows[0]!.poster = { src: "poster.png" };
    file.shows[0]!.hero = { src: "https://example.com/hero.jpg", alt: "A hero" };
    expect(await problemsOf(importCatalogue(store, file, clock, options))).toEqual([
      'shows[0] "test-show" › poster.alt: an image needs alt text: say what it shows for buyers who cannot see it (the show\'s name and what the picture shows)',
      'shows[0] "test-show" › hero.src: must be a file path relative to the catalogue file, not a URL (download the image beside the catalogue)',
    ]);
    file.shows[0]!.poster = { src: "poster.png", alt: "  " };
    expect(await problemsOf(importCatalogue(store, file, clock, options))).toContain(
      'shows[0] "test-show" › poster.alt: an image needs alt text: say what it shows for buyers who cannot see it',
    );
    file.shows[0]!.poster = { src: "posters/missing.jpg", alt: "Poster" };
    file.shows[0]!.hero = { src: "notes.txt", alt: "Hero" };
    expect(await problemsOf(importCatalogue(store, file, clock, options))).toEqual([
      `shows[0] "test-show" › poster.src: no file "posters/missing.jpg" (looked for ${join(folder, "posters/missing.jpg")})`,
      'shows[0] "test-show" › hero.src: "notes.txt" is not a picture the import can read (JPEG, PNG, WebP, AVIF, GIF, TIFF or SVG)',
    ]);
    // Without a folder to read from (a catalogue given as data, not a file), pictures are refused.
    file.shows[0]!.poster = { src: "poster.png", alt: "Poster" };
    delete file.shows[0]!.hero;
    expect(await problemsOf(importCatalogue(store, file, clock))).toEqual([
      'shows[0] "test-show" › poster.src: pictures are imported only from a catalogue file (npm run catalogue:import -- FILE)',
    ]);
    expect(await store.db.selectFrom("titles").selectAll().execute()).toEqual([]);
  });

  it("makes each size in AVIF, WebP and JPEG with the width and height it records, never enlarging a raster", async () => {
    const file = smallCatalogue() as Record<string, unknown> & { shows: Record<string, unknown>[] };
    file.shows[0]!.poster = { src: "poster.png", alt: "Poster for Test Show: white letters on blue" };
    file.shows[0]!.hero = { src: "hero.svg", alt: "A red curtain" };
    const summary = await importCatalogue(store, file, clock, options);
    expect(summary.pictures).toBe(2);

    const { poster, hero } = await createCatalogue(store, clock).picturesOf("test-show");
    expect(poster!.alt).toBe("Poster for Test Show: white letters on blue");
    expect([poster!.width, poster!.height]).toEqual([640, 960]);
    expect(poster!.sources.map((source) => `${source.format} ${source.width}x${source.height}`)).toEqual([
      "avif 320x480",
      "avif 640x960",
      "webp 320x480",
      "webp 640x960",
      "jpeg 320x480",
      "jpeg 640x960",
    ]);
    // A vector is drawn at every size, the largest included.
    expect(
      hero!.sources.filter((source) => source.format === "jpeg").map((source) => [source.width, source.height]),
    ).toEqual([
      [640, 360],
      [1280, 720],
      [1920, 1080],
    ]);
    for (const source of [...poster!.sources, ...hero!.sources]) {
      expect(source.file).toMatch(/^test-show-(poster|hero)-[0-9a-f]{16}-\d+\.(avif|webp|jpg)$/);
      const meta = await sharp(join(images, source.file)).metadata();
      expect([meta.width, meta.height], source.file).toEqual([source.width, source.height]);
      expect(meta.format).toBe({ avif: "heif", webp: "webp", jpeg: "jpeg" }[source.format]);
    }
    expect(readdirSync(images)).toHaveLength(15);
  });
});
