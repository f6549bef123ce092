// @vitest-environment node
// patches/@remix-run+react: on the server, a Link to a plain path of the site is written without
// the hooks that resolve it against the routes (decision 0036). It must be the same <a>, byte for
// byte, as the link resolved the usual way (a `to` object goes that way).
import { Link } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { parsePath, UNSAFE_NavigationContext } from "react-router-dom";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";

type LinkProps = Omit<Parameters<typeof Link>[0], "to">;

const inRouter = (to: string | ReturnType<typeof parsePath>, props: LinkProps = {}) =>
  renderToString(
    <StaticRouter location="/checkout/payment?x=1">
      <Link to={to} {...props}>
        Terms &amp; conditions
      </Link>
    </StaticRouter>,
  );

describe("a server-side Link to a plain path", () => {
  const paths = [
    "/",
    "/legal/terms-of-use",
    "/account/sign-in",
    "/checkout/hold?confirm=release&returnTo=%2Fshows%2Fthe-lantern-keeper%2Fregent-palace%2Ftickets%2F1",
  ];
  const variants: LinkProps[] = [
    {},
    { className: "hold-panel__release", "aria-current": "page" },
    { target: "_blank", rel: "noopener", onClick: () => undefined },
    { reloadDocument: true, replace: true, state: { from: "x" }, preventScrollReset: true },
    { discover: "none", id: "terms" },
  ];

  it("is the same <a> as the link resolved against the routes", () => {
    for (const path of paths)
      for (const props of variants) expect(inRouter(path, props)).toBe(inRouter(parsePath(path), props));
    expect(inRouter("/legal/terms-of-use", { className: "c" })).toBe(
      '<a class="c" data-discover="true" href="/legal/terms-of-use">Terms &amp; conditions</a>',
    );
  });

  it("asks the routes nothing: it needs the navigation context alone", () => {
    const navigation = { basename: "/", navigator: {} as never, static: true, future: { v7_relativeSplatPath: true } };
    const html = renderToString(
      <UNSAFE_NavigationContext.Provider value={navigation}>
        <Link to="/legal/privacy-policy">Privacy</Link>
      </UNSAFE_NavigationContext.Provider>,
    );
    expect(html).toBe('<a data-discover="true" href="/legal/privacy-policy">Privacy</a>');
  });

  it("leaves any other path to the routes to resolve", () => {
    for (const to of ["extras", "../payment", "/a/../b", "/checkout/", "/legal?"])
      expect(inRouter(to)).toBe(inRouter(parsePath(to)));
    expect(inRouter("/checkout/../legal/terms-of-use")).toContain('href="/legal/terms-of-use"');
  });
});
