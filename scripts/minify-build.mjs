// Runs after `remix build`: minifies the browser's JavaScript again with terser. The Remix
// compiler minifies with esbuild, which leaves a few per cent that terser's compressor takes
// (3.4% of the React and Remix chunk, gzipped), and every form page sits within a few KB of the
// 120 KB budget (design.md section 8, issue 16 item 8). File names keep their hashes: each build
// writes the same bytes for the same sources, so the long cache lifetime of /build/ stays true.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { minify } from "terser";

const buildDir = join(dirname(fileURLToPath(import.meta.url)), "../public/build");

function* scripts(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* scripts(path);
    else if (entry.name.endsWith(".js")) yield path;
  }
}

let before = 0;
let after = 0;
for (const path of scripts(buildDir)) {
  const source = readFileSync(path, "utf8");
  const mapPath = `${path}.map`;
  const hasMap = existsSync(mapPath);
  const result = await minify(source, {
    module: true,
    compress: { passes: 2 },
    mangle: true,
    format: { comments: false },
    sourceMap: hasMap ? { content: readFileSync(mapPath, "utf8"), url: `${path.split("/").pop()}.map` } : false,
  });
  if (result.code === undefined) throw new Error(`terser returned nothing for ${path}`);
  writeFileSync(path, result.code);
  if (hasMap && typeof result.map === "string") writeFileSync(mapPath, result.map);
  before += source.length;
  after += result.code.length;
}
console.log(`minify-build: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB of browser JavaScript`);
