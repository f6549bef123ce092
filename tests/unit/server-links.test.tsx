// @vitest-environment node
// patches/@remix-run+react: on the server, a Link to a plain path of the site is written without
// the hooks that resolve it against the routes (decision 0036). It must be the same <a>, byte for
// byte, as the link resolved the usual way (a `to` object goes that way).
import { Form, Link } from "@remix-run/react";
import type { ComponentType, ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { Form as RouterForm, parsePath, UNSAFE_NavigationContext } from "react-router-dom";
import { createRequire } from "node:module";
import { StaticRouter } from "react-router-dom/server";
import type * as RouterServer from "react-router-dom/server";
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

// patches/@remix-run+react: on the server, a Form is written without the browser's submit handler,
// and a route's forms that name no action share the action worked out for the first of them.
describe("a server-side Form", () => {
  // The CommonJS build, as @remix-run/react's server build loads it (patched to keep a set of
  // routes' data routes: the same route objects for every request, as in production). Imported,
  // the test would get the ES module build, which makes new route objects for each render.
  const { createStaticHandler, createStaticRouter, StaticRouterProvider } = createRequire(import.meta.url)(
    "react-router-dom/server",
  ) as typeof RouterServer;
  type FormProps = Parameters<typeof Form>[0];
  const forms: FormProps[] = [
    { method: "post", id: "promo", noValidate: true },
    { method: "post", className: "voucher-applied" },
    { method: "POST", id: "pay", action: "/checkout/payment?intent=pay" },
    { id: "search", role: "search" },
    { method: "post", reloadDocument: true, replace: true, preventScrollReset: true, navigate: false },
    { method: "post", action: "https://pay.example/3ds" },
    { method: "post", relative: "path", discover: "none" },
  ];
  const written = (FormComponent: ComponentType<FormProps>) =>
    forms.map((props, index) => (
      <FormComponent key={index} {...props}>
        <button type="submit">Apply</button>
      </FormComponent>
    ));
  // What @remix-run/react's Form renders unpatched: react-router-dom's, with data-discover.
  const Unpatched = ({ discover = "render", ...props }: FormProps) => {
    const absolute = typeof props.action === "string" && /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(props.action);
    return (
      <RouterForm
        {...props}
        data-discover={discover === "render" && !absolute && !props.reloadDocument ? "true" : undefined}
      />
    );
  };
  // A data router, as Remix renders in: the page's forms in a route, and in an index route.
  const page = async (location: string, children: ReactNode) => {
    const handler = createStaticHandler([
      { path: "/checkout/payment", element: children },
      { path: "/checkout", children: [{ index: true, element: children }] },
    ]);
    const context = await handler.query(new Request(`http://localhost${location}`));
    if (context instanceof Response) throw new Error(`${location} answered ${context.status}`);
    const router = createStaticRouter(handler.dataRoutes, context);
    return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  };

  it("is the same <form> as react-router-dom writes, in a route and in an index route", async () => {
    for (const location of ["/checkout/payment", "/checkout/payment?lng=en-US", "/checkout?index&x=1", "/checkout"]) {
      const html = await page(location, written(Form));
      expect(html, location).toBe(await page(location, written(Unpatched)));
      expect(html.match(/<form /g)).toHaveLength(forms.length);
    }
    expect(await page("/checkout/payment?x=1", <Form method="post" id="f" />)).toBe(
      '<form method="post" action="/checkout/payment?x=1" id="f" data-discover="true"></form>',
    );
  });

  it("works out each render's action from that render's own location, the routes shared between renders", async () => {
    // As Remix serves: one set of routes for every request.
    const routesOf = (element: ReactNode) =>
      createStaticHandler([
        { path: "/shows/:slug/tickets", element },
        { path: "/checkout", children: [{ index: true, element }] },
      ]);
    const patched = routesOf(written(Form));
    const unpatched = routesOf(written(Unpatched));
    const render = async (handler: ReturnType<typeof createStaticHandler>, location: string) => {
      const context = await handler.query(new Request(`http://localhost${location}`));
      if (context instanceof Response) throw new Error(`${location} answered ${context.status}`);
      return renderToString(
        <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
      );
    };
    const asked = [
      ["/shows/hamlet/tickets?step=1", 'action="/shows/hamlet/tickets?step=1"'],
      ["/shows/hamlet/tickets?step=2", 'action="/shows/hamlet/tickets?step=2"'],
      ["/shows/cats/tickets", 'action="/shows/cats/tickets"'],
      ["/shows/hamlet/tickets?step=1", 'action="/shows/hamlet/tickets?step=1"'],
      ["/checkout?x=1", 'action="/checkout?index&amp;x=1"'],
      ["/checkout", 'action="/checkout?index"'],
    ] as const;
    for (const [location, action] of asked) {
      const html = await render(patched, location);
      expect(html, location).toContain(action);
      expect(html, location).toBe(await render(unpatched, location));
    }
  });
});
