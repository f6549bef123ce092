import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import sharp from "sharp";
import type { CataloguePicture } from "./catalogue-file";

// A show's poster and hero picture, from the operator's file to what pages serve: each size in
// AVIF, WebP and JPEG, written under DATA_DIR/images with names made from the file's content and
// this recipe, so a name never changes meaning (served with a year's immutable caching) and
// importing the same picture again writes nothing. No object store: the files live beside the data
// (one volume, shared by every process and replica that serves the site).

export type PictureRole = "poster" | "hero";
export type PictureFormat = "avif" | "webp" | "jpeg";

export interface PictureSource {
  format: PictureFormat;
  width: number;
  height: number;
  /** The file's name under the images folder. */
  file: string;
}

export interface MadePicture {
  role: PictureRole;
  alt: string;
  /** The largest size's. */
  width: number;
  height: number;
  sources: PictureSource[];
}

/** The widths each picture is made in (never wider than a raster original). */
export const PICTURE_WIDTHS: Record<PictureRole, readonly number[]> = {
  poster: [320, 640, 960],
  hero: [640, 1280, 1920],
};

export const PICTURE_FORMATS: readonly PictureFormat[] = ["avif", "webp", "jpeg"];
export const EXTENSION: Record<PictureFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };

/** Changes whenever the sizes or the encoders' settings do: part of every name. */
const RECIPE = "1:avif-q50-e2:webp-q78:jpeg-q80-moz";

/** A picture a catalogue names, found and read (or the problem with it). */
export interface PictureFile {
  path: string;
  bytes: Buffer;
  width: number;
  height: number;
  vector: boolean;
}

/** Where a picture's `src` points: relative paths from the catalogue file's folder. */
export function picturePath(src: string, baseDir: string): string {
  return isAbsolute(src) ? src : resolve(baseDir, src);
}

/**
 * Reads a picture the catalogue names: an error message (for the import's list of problems) when
 * there is no such file or it is not a picture sharp can read.
 */
export async function readPicture(picture: CataloguePicture, baseDir: string): Promise<PictureFile | string> {
  const path = picturePath(picture.src, baseDir);
  if (!existsSync(path) || !statSync(path).isFile()) return `no file "${picture.src}" (looked for ${path})`;
  const bytes = readFileSync(path);
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) throw new Error("no size");
    // Orientations 5 to 8 are stored on their side: the picture as seen is the other way round.
    const turned = (meta.orientation ?? 1) >= 5;
    return {
      path,
      bytes,
      width: turned ? meta.height : meta.width,
      height: turned ? meta.width : meta.height,
      vector: meta.format === "svg",
    };
  } catch {
    return `"${picture.src}" is not a picture the import can read (JPEG, PNG, WebP, AVIF, GIF, TIFF or SVG)`;
  }
}

/** The sizes a picture is made in: its widths up to a raster original's own (at least one). */
export function sizesOf(role: PictureRole, file: Pick<PictureFile, "width" | "height" | "vector">) {
  const widths = PICTURE_WIDTHS[role];
  const fitting = file.vector ? [...widths] : widths.filter((width) => width <= file.width);
  const chosen = fitting.length ? fitting : [file.width];
  return chosen.map((width) => ({ width, height: Math.max(1, Math.round((width * file.height) / file.width)) }));
}

function encode(image: sharp.Sharp, format: PictureFormat) {
  switch (format) {
    case "avif":
      return image.avif({ quality: 50, effort: 2 });
    case "webp":
      return image.webp({ quality: 78 });
    case "jpeg":
      return image.flatten({ background: "#ffffff" }).jpeg({ quality: 80, mozjpeg: true });
  }
}

/** Writes a file whole or not at all: another process making the same picture writes the same bytes. */
function writeAtomically(path: string, bytes: Buffer) {
  const temporary = `${path}.${randomUUID()}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/**
 * Makes every size and format of a picture under `imagesDir`, named `{slug}-{role}-{hash}-{width}.{ext}`
 * from its content; files already there (the same picture imported before) are kept as they are.
 */
export async function makePicture(
  slug: string,
  role: PictureRole,
  picture: CataloguePicture,
  file: PictureFile,
  imagesDir: string,
): Promise<MadePicture> {
  mkdirSync(imagesDir, { recursive: true });
  const hash = createHash("sha256").update(RECIPE).update(file.bytes).digest("hex").slice(0, 16);
  const sizes = sizesOf(role, file);
  // A vector original is drawn at the density its largest size needs, not enlarged from 72 dpi.
  const density = file.vector
    ? Math.min(2400, Math.ceil((72 * sizes[sizes.length - 1]!.width) / file.width))
    : undefined;
  const sources: PictureSource[] = [];
  for (const format of PICTURE_FORMATS) {
    await Promise.all(
      sizes.map(async ({ width, height }) => {
        const name = `${slug}-${role}-${hash}-${width}.${EXTENSION[format]}`;
        const target = join(imagesDir, name);
        if (!existsSync(target)) {
          const image = sharp(file.bytes, density ? { density } : {})
            .rotate()
            .resize({ width, height, fit: "fill" });
          writeAtomically(target, await encode(image, format).toBuffer());
        }
        sources.push({ format, width, height, file: name });
      }),
    );
  }
  sources.sort((a, b) => PICTURE_FORMATS.indexOf(a.format) - PICTURE_FORMATS.indexOf(b.format) || a.width - b.width);
  const largest = sizes[sizes.length - 1]!;
  return { role, alt: picture.alt, width: largest.width, height: largest.height, sources };
}
