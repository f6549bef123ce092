// Writes the demo catalogue's posters (catalogue/posters/*.svg): typographic posters drawn from
// each show's title and colours, no photograph or artwork of anyone's. The import renders them
// with sharp like any operator's picture. Run again after changing this table:
//   node scripts/demo-posters.mjs
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const W = 800;
const H = 1200;

/** Each show: its lines of title, a tagline, colours (ground, ground's second, ink, accent) and a motif. */
const SHOWS = [
  {
    slug: "the-lantern-keeper",
    title: ["The", "Lantern", "Keeper"],
    tagline: "A new musical",
    venue: "Regent Palace Theatre",
    colours: ["#0f1c3f", "#26407a", "#f6d37a", "#ffb347"],
    motif: "glow",
    serif: true,
  },
  {
    slug: "sunday-gala-concerts",
    title: ["Sunday", "Gala", "Concerts"],
    tagline: "Orchestra & friends",
    venue: "Regent Palace Theatre",
    colours: ["#4a0d1c", "#7a1730", "#f8e9cc", "#d9a441"],
    motif: "arcs",
    serif: true,
  },
  {
    slug: "a-winters-crossing",
    title: ["A Winter's", "Crossing"],
    tagline: "A play in two acts",
    venue: "Harbour Playhouse",
    colours: ["#e4eef6", "#b9d0e4", "#16263d", "#5b7fa6"],
    motif: "snow",
    serif: true,
  },
  {
    slug: "the-tide-tables",
    title: ["The", "Tide", "Tables"],
    tagline: "For all the family",
    venue: "Harbour Playhouse",
    colours: ["#074650", "#0e6b73", "#f5e6c0", "#7fd1c7"],
    motif: "waves",
    serif: false,
  },
  {
    slug: "broadway-lights",
    title: ["Broadway", "Lights"],
    tagline: "The revue",
    venue: "Liberty Theatre",
    colours: ["#0d0d0d", "#2a1f05", "#ffd23f", "#ff9f1c"],
    motif: "bulbs",
    serif: false,
  },
  {
    slug: "comedy-mondays",
    title: ["Comedy", "Mondays"],
    tagline: "Stand-up, every week",
    venue: "Liberty Theatre",
    colours: ["#ff7a00", "#ffb000", "#111111", "#ffffff"],
    motif: "stripes",
    serif: false,
  },
  {
    slug: "northern-static",
    title: ["Northern", "Static"],
    tagline: "Live",
    venue: "Foundry Hall",
    colours: ["#121417", "#24303a", "#3fd8ff", "#e8f7ff"],
    motif: "static",
    serif: false,
  },
  {
    slug: "the-velvet-hours",
    title: ["The", "Velvet", "Hours"],
    tagline: "In concert",
    venue: "Foundry Hall",
    colours: ["#2e0b45", "#5a1a7a", "#f9b4d2", "#ffe3f0"],
    motif: "rings",
    serif: true,
  },
  {
    slug: "dj-marlowe-all-night",
    title: ["DJ Marlowe", "All Night"],
    tagline: "Doors 10pm till late",
    venue: "Foundry Hall",
    colours: ["#0a0a26", "#221256", "#ff2e88", "#46f0ff"],
    motif: "bars",
    serif: false,
  },
];

/** A repeatable pseudo-random sequence, so the posters come out the same every run. */
function random(seed) {
  let state = [...seed].reduce((sum, char) => (sum * 31 + char.charCodeAt(0)) >>> 0, 7);
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function motif(show) {
  const [, ground2, ink, accent] = show.colours;
  const next = random(show.slug);
  switch (show.motif) {
    case "glow":
      return `<circle cx="400" cy="870" r="240" fill="url(#glow)"/><rect x="360" y="790" width="80" height="150" rx="14" fill="none" stroke="${ink}" stroke-width="8"/><path d="M370 790 L400 750 L430 790" fill="none" stroke="${ink}" stroke-width="8"/><circle cx="400" cy="865" r="22" fill="${accent}"/>`;
    case "arcs":
      return Array.from(
        { length: 7 },
        (_, i) =>
          `<circle cx="400" cy="1200" r="${180 + i * 70}" fill="none" stroke="${accent}" stroke-opacity="${0.9 - i * 0.11}" stroke-width="6"/>`,
      ).join("");
    case "snow":
      return (
        Array.from(
          { length: 90 },
          () =>
            `<circle cx="${Math.round(next() * W)}" cy="${Math.round(next() * H)}" r="${(2 + next() * 7).toFixed(1)}" fill="#ffffff" fill-opacity="${(0.5 + next() * 0.5).toFixed(2)}"/>`,
        ).join("") +
        `<path d="M0 980 L220 860 L400 940 L590 820 L800 930 L800 1200 L0 1200 Z" fill="${accent}" fill-opacity="0.35"/>`
      );
    case "waves":
      return Array.from({ length: 8 }, (_, i) => {
        const y = 720 + i * 60;
        return `<path d="M0 ${y} Q100 ${y - 40} 200 ${y} T400 ${y} T600 ${y} T800 ${y}" fill="none" stroke="${accent}" stroke-opacity="${0.9 - i * 0.09}" stroke-width="7"/>`;
      }).join("");
    case "bulbs": {
      const bulbs = [];
      for (let x = 40; x <= 760; x += 48) bulbs.push([x, 40], [x, 1160]);
      for (let y = 88; y <= 1112; y += 48) bulbs.push([40, y], [760, y]);
      return bulbs
        .map(
          ([x, y]) =>
            `<circle cx="${x}" cy="${y}" r="13" fill="${ink}"/><circle cx="${x}" cy="${y}" r="22" fill="${ink}" fill-opacity="0.18"/>`,
        )
        .join("");
    }
    case "stripes":
      return (
        Array.from(
          { length: 14 },
          (_, i) =>
            `<path d="M${-400 + i * 110} 1200 L${i * 110} 700" stroke="${ink}" stroke-opacity="0.12" stroke-width="40"/>`,
        ).join("") +
        `<circle cx="620" cy="860" r="110" fill="${accent}"/><path d="M560 880 Q620 950 680 880" fill="none" stroke="${ink}" stroke-width="12" stroke-linecap="round"/><circle cx="585" cy="830" r="12" fill="${ink}"/><circle cx="655" cy="830" r="12" fill="${ink}"/>`
      );
    case "static":
      return Array.from({ length: 70 }, (_, i) => {
        const y = 600 + i * 6;
        const x = Math.round(next() * 300);
        return `<rect x="${x}" y="${y}" width="${Math.round(200 + next() * 500)}" height="3" fill="${next() > 0.8 ? accent : ink}" fill-opacity="${(0.2 + next() * 0.7).toFixed(2)}"/>`;
      }).join("");
    case "rings":
      return Array.from(
        { length: 5 },
        (_, i) =>
          `<circle cx="${260 + i * 70}" cy="${820 - i * 20}" r="${150 - i * 12}" fill="none" stroke="${i % 2 ? accent : ink}" stroke-opacity="0.7" stroke-width="5"/>`,
      ).join("");
    case "bars":
      return (
        Array.from({ length: 16 }, (_, i) => {
          const height = Math.round(60 + next() * 380);
          return `<rect x="${60 + i * 43}" y="${1060 - height}" width="30" height="${height}" rx="6" fill="${i % 3 ? ink : accent}" fill-opacity="0.85"/>`;
        }).join("") + `<rect x="0" y="${1060 - 1}" width="800" height="2" fill="${ground2}"/>`
      );
    default:
      return "";
  }
}

const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function poster(show) {
  const [ground, ground2, ink, accent] = show.colours;
  const longest = Math.max(...show.title.map((line) => line.length));
  const size = Math.min(150, Math.floor((show.serif ? 1250 : 1080) / Math.max(longest, 5)));
  const family = show.serif ? "DejaVu Serif, Georgia, serif" : "DejaVu Sans, Helvetica, Arial, sans-serif";
  const title = show.title
    .map(
      (line, i) =>
        `<text x="400" y="${190 + size + i * Math.round(size * 1.05)}" text-anchor="middle" font-family="${family}" font-weight="bold" font-size="${size}" fill="${ink}">${escape(line)}</text>`,
    )
    .join("");
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${ground}"/><stop offset="1" stop-color="${ground2}"/></linearGradient>
<radialGradient id="glow"><stop offset="0" stop-color="${accent}" stop-opacity="0.8"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient>
</defs>
<rect width="${W}" height="${H}" fill="url(#ground)"/>
${motif(show)}
<text x="400" y="150" text-anchor="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="30" letter-spacing="8" fill="${accent}">${escape(show.tagline.toUpperCase())}</text>
${title}
<text x="400" y="1110" text-anchor="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="34" letter-spacing="3" fill="${ink}">${escape(show.venue)}</text>
</svg>
`;
}

const folder = fileURLToPath(new URL("../catalogue/posters/", import.meta.url));
mkdirSync(folder, { recursive: true });
for (const show of SHOWS) writeFileSync(`${folder}${show.slug}.svg`, poster(show));
console.log(`wrote ${SHOWS.length} posters to ${folder}`);
