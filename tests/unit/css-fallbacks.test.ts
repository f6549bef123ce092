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
