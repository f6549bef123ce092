import { resolve } from "node:path";
import express, { type RequestHandler } from "express";
import type { Config } from "~/config/env.server";

// The shows' pictures, as the catalogue import made them (app/ticketing/catalogue-pictures.server.ts):
// files under DATA_DIR/images whose names come from their content, so each is cached for a year
// and never asked for again. Only such names are looked for; anything else is the site's 404 page.

/** Where the import writes pictures and the server serves them from. */
export const imagesDirOf = (config: Pick<Config, "dataDir">, root: string) => resolve(root, config.dataDir, "images");

export { PICTURES_PATH } from "~/urls/paths";

const TYPES: Record<string, string> = { avif: "image/avif", webp: "image/webp", jpg: "image/jpeg" };
const NAME = /^\/[a-z0-9][a-z0-9-]{0,300}\.(avif|webp|jpg)$/;

export function pictureFiles(dir: string): RequestHandler {
  const serve = express.static(dir, {
    index: false,
    cacheControl: false,
    etag: false,
    fallthrough: true,
    setHeaders: (res, path) => {
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Type", TYPES[path.slice(path.lastIndexOf(".") + 1)] ?? "application/octet-stream");
    },
  });
  return (req, res, next) => {
    if (!NAME.test(req.path)) return next();
    return serve(req, res, next);
  };
}
