import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postcss, { type AtRule, type Declaration, type Node, type Rule } from "postcss";
import { describe, expect, it } from "vitest";

// Browsers without CSS custom properties, max()/min()/clamp() (IE 11, Opera Mini, older Android
// WebViews) drop every declaration that uses them. Each theme's compiled stylesheet (built by
// `npm run build:assets`, which `npm test` runs first) must leave such a browser a usable page:
// a literal declaration before each one, and the seat map's positions only where they work.

const GENERATED = join(process.cwd(), "app/styles/generated");
const themes = readdirSync(GENERATED).filter((file) => file.endsWith(".css"));
const MODERN = /var\(|(?<![a-z-])(max|min|clamp)\(/;

const parse = (file: string) => postcss.parse(readFileSync(join(GENERATED, file), "utf8"));
const supportsAbove = (node: Declaration): AtRule | undefined => {
  for (
    let parent: Node | undefined = node.parent as Node | undefined;
    parent;
    parent = parent.parent as Node | undefined
  ) {
    if (parent.type === "atrule" && (parent as AtRule).name === "supports") return parent as AtRule;
  }
  return undefined;
};

/** Relative luminance and contrast ratio (WCAG 2.x) of two #rgb/#rrggbb colours. */
function contrast(a: string, b: string) {
  const luminance = (hex: string) => {
    const full = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, "#$1$1$2$2$3$3") : hex;
    const [r, g, b] = [1, 3, 5].map((at) => {
      const channel = parseInt(full.slice(at, at + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

describe.each(themes)("the %s stylesheet without custom properties", (file) => {
  const root = parse(file);

  it("has a literal declaration before every one that uses var(), max(), min() or clamp()", () => {
    expect(themes.length).toBeGreaterThanOrEqual(3);
    const missing: string[] = [];
    let checked = 0;
    root.walkDecls((decl) => {
      // Custom properties themselves, and grid templates (meaningless without grid, which such a
      // browser lays out as blocks), need no literal.
      if (decl.prop.startsWith("--") || decl.prop.startsWith("grid-") || !MODERN.test(decl.value)) return;
      if (supportsAbove(decl)) return;
      checked += 1;
      const before = (decl.parent as Rule).nodes.slice(0, (decl.parent as Rule).index(decl));
      const literal = before.some(
        (node) => node.type === "decl" && node.prop === decl.prop && !MODERN.test(node.value),
      );
      if (!literal) missing.push(`${(decl.parent as Rule).selector} { ${decl.prop}: ${decl.value} }`);
    });
    expect(checked).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });

  it("places seats only where custom properties and max() work; elsewhere they flow in rows", () => {
    const placements: { supports: string | undefined; selector: string }[] = [];
    root.walkDecls("left", (decl) => {
      if (decl.value.includes("var(--x)")) {
        placements.push({ supports: supportsAbove(decl)?.params, selector: (decl.parent as Rule).selector });
      }
    });
    expect(placements.length).toBeGreaterThan(0);
    for (const placement of placements) {
      expect(placement.supports).toMatch(/\(--[a-z-]+:\s*0\)/);
      expect(placement.supports).toMatch(/max\(/);
    }
    // Outside @supports nothing takes a seat out of the flow.
    root.walkDecls("position", (decl) => {
      const selector = (decl.parent as Rule).selector ?? "";
      if (!supportsAbove(decl) && /\.seat-map__plan \.s\b|\.seat-map__row-name/.test(selector)) {
        throw new Error(`${selector} is positioned outside @supports`);
      }
    });
  });

  // What a rule of the seat map (or its key) draws in such a browser: its last background-image
  // without var(), outside @supports.
  const literalImage = (selector: string) => {
    let image: string | undefined;
    root.walkRules((rule) => {
      if (!rule.selectors.includes(`.seat-map ${selector}`) || !rule.selectors.includes(`.seat-map-key ${selector}`))
        return;
      rule.walkDecls("background-image", (decl) => {
        if (!MODERN.test(decl.value) && !supportsAbove(decl)) image = decl.value;
      });
    });
    return image;
  };
  const badgeOf = (mark: string) => {
    let badge: string | undefined;
    root.walkDecls("--badge", (decl) => {
      if ((decl.parent as Rule).selectors.includes(`.seat-map .${mark}`)) badge = decl.value.trim();
    });
    return badge;
  };
  const HATCH = /^repeating-linear-gradient\(/;
  // Old browsers read neither rgb(0 0 0 / 0.45) nor a colour stop with two positions.
  const OLD_HATCH =
    /^repeating-linear-gradient\(135deg, transparent 0, transparent 4px, rgba\(0, 0, 0, 0\.45\) 4px, rgba\(0, 0, 0, 0\.45\) 5\.5px\)$/;

  it("draws every seat mark and the restricted view's hatching, on the map and in its key", () => {
    // w wheelchair, c companion, a access, p package, r promotion, m American Express.
    for (const mark of ["w", "c", "a", "p", "r", "m"]) {
      const badge = badgeOf(mark);
      expect(badge, mark).toMatch(/^url\("data:image\/svg\+xml,/);
      const layers = postcss.list.comma(literalImage(`.${mark}`) ?? "");
      expect(layers, mark).toEqual([badge, "none", "none"]);
      // A marked seat with a restricted view shows both.
      const both = postcss.list.comma(literalImage(`.${mark}.v`) ?? "");
      expect(both[0], mark).toBe(badge);
      expect(both[2], mark).toMatch(OLD_HATCH);
    }
    const hatch = postcss.list.comma(literalImage(".v") ?? "");
    expect(hatch[2]).toMatch(OLD_HATCH);
    // A band's restricted seat keeps the band's symbol under the hatching, chosen or not.
    for (let band = 0; band < 8; band += 1) {
      const plain = postcss.list.comma(literalImage(`.b${band}`) ?? "");
      const restricted = postcss.list.comma(literalImage(`.b${band}.v`) ?? "");
      expect(restricted[1], `b${band}`).toBe(plain[1]);
      expect(restricted[2], `b${band}`).toMatch(HATCH);
      expect(postcss.list.comma(literalImage(`.b${band}.v:checked`) ?? "")[2], `b${band}`).toMatch(HATCH);
    }
  });

  it("draws a taken seat as taken, hatched or not", () => {
    const cross = postcss.list.comma(literalImage(".t") ?? "");
    expect(cross).toEqual(["none", expect.stringMatching(/^url\("data:image\/svg\+xml,/), "none"]);
    expect(postcss.list.comma(literalImage(".v.t") ?? "")).toEqual(cross);
  });

  it("keeps the seat names, placed out of sight, inside the map's scrolling box", () => {
    // Without custom properties nothing in the map is positioned, so the names (position:
    // absolute) are placed against the nearest positioned box: unless it is the viewport, a long
    // row's last names lie beyond the page's right edge and the page scrolls sideways.
    const viewport: Record<string, string> = {};
    root.walkRules(".seat-map__viewport", (rule) => {
      if (rule.parent?.type === "atrule") return;
      rule.walkDecls((decl) => {
        if (!MODERN.test(decl.value)) viewport[decl.prop] = decl.value;
      });
    });
    expect(viewport).toMatchObject({ position: "relative", overflow: "auto", "max-width": "100%" });
  });

  it("gives each warning button a literal colour pair that can be read", () => {
    const literal = (prop: string) => {
      let value: string | undefined;
      root.walkRules(/\.button--warning$/, (rule) => {
        rule.walkDecls(prop, (decl) => {
          if (!MODERN.test(decl.value) && value === undefined) value = decl.value;
        });
      });
      return value;
    };
    const background = literal("background") ?? literal("background-color");
    const colour = literal("color");
    expect(background).toMatch(/^#[0-9a-f]{3,6}$/i);
    expect(colour).toMatch(/^#[0-9a-f]{3,6}$/i);
    expect(contrast(background!, colour!)).toBeGreaterThanOrEqual(4.5);
  });
});
