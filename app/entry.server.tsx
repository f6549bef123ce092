import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceProvider } from "~/components/nonce";
import { COMMON_NS, isLanguage } from "~/i18n/languages";
import { declaredQueryValues, type DeclaredQueryValues, type KeptQuery, type PageQueryHandle } from "~/urls/page-query";
import { pageKey, type PageSecrets } from "~/web/page-cache.server";

// How a request becomes bytes is told in docs/rendering.md.

/** A render that has not finished by then is abandoned (no loader defers data, so none should wait). */
const RENDER_TIMEOUT_MS = 10_000;

/**
 * The query parameters the page's routes read, with the values that may key a kept page, when
 * every route of the page but the root says every visitor sees it alike given its data
 * (`handle.keptPage`); undefined when it may not be kept.
 */
function keptPageQuery(request: Request, status: number, context: EntryContext): DeclaredQueryValues | undefined {
  if (request.method !== "GET" || status !== 200) return undefined;
  const matches = context.staticHandlerContext.matches.map(({ route }) => ({
    id: route.id,
    handle: context.routeModules[route.id]?.handle as PageQueryHandle | undefined,
    keptQuery: (context.routeModules[route.id] as { keptQuery?: KeptQuery } | undefined)?.keptQuery,
  }));
  const pages = matches.filter((match) => match.id !== "root");
  if (pages.length === 0 || !pages.every((match) => match.handle?.keptPage)) return undefined;
  return declaredQueryValues(matches);
}

/**
 * The page written whole (decision 0036): no loader defers data, so React is asked for it once
 * everything is ready, and a buyer's browser, a text browser and a crawler get the same bytes.
 */
/**
 * React 18's streaming renderer pads a 2 KB chunk with NUL bytes when a short text with a
 * multi-byte character ("£5.00") does not fit at its end, and writes the text in the next chunk
 * (facebook/react#31134, closed unfixed in 18). HTML may not contain NUL, so none is ours: the
 * padding is dropped and the page reads as rendered.
 */
const withoutPadding = (html: string) => html.replaceAll("\u0000", "");

export function renderPage(element: React.ReactElement, onError: (error: unknown) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = "";
    // React may call back before renderToPipeableStream returns: the timer is set first.
    let abort = () => {};
    const timeout = setTimeout(() => abort(), RENDER_TIMEOUT_MS);
    const stream = renderToPipeableStream(element, {
      onAllReady() {
        const body = new PassThrough();
        body.setEncoding("utf8");
        body.on("data", (chunk: string) => (html += chunk));
        body.on("end", () => {
          clearTimeout(timeout);
          resolve(closedAtTheEnd(withoutPadding(html)));
        });
        body.on("error", reject);
        stream.pipe(body);
      },
      onShellError(error) {
        clearTimeout(timeout);
        reject(error);
      },
      onError,
    });
    abort = stream.abort;
  });
}

const DOCUMENT_END = "</body></html>";

/**
 * React writes Remix's data scripts (single fetch's stream transfer) after the document's closing
 * `</body></html>`, where HTML allows nothing: the Nu checker and simpler parsers stop there, while
 * browsers put the scripts in the body anyway. Moved to the very end, the page means what it meant
 * and is valid.
 */
export function closedAtTheEnd(html: string): string {
  const at = html.lastIndexOf(DOCUMENT_END);
  if (at < 0 || at + DOCUMENT_END.length === html.length) return html;
  return html.slice(0, at) + html.slice(at + DOCUMENT_END.length) + DOCUMENT_END;
}

function htmlResponse(html: string, headers: Headers, status: number) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { headers, status });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const rootData = remixContext.staticHandlerContext.loaderData.root as
    | { locale?: string; wordingSet?: string; csrf?: string }
    | undefined;
  const secrets: PageSecrets = { nonce: loadContext.cspNonce, csrf: rootData?.csrf ?? "" };

  let key: { key: string; keepable: boolean } | undefined;
  const declared = keptPageQuery(request, responseStatusCode, remixContext);
  if (declared && remixContext.serverHandoffStream) {
    // The data Remix hands the browser is all there once the loaders have run (none defers any):
    // one copy is read for the key, the other goes to the render as usual.
    const [forKey, forRender] = remixContext.serverHandoffStream.tee();
    remixContext = { ...remixContext, serverHandoffStream: forRender };
    key = pageKey(new URL(request.url), declared, await new Response(forKey).text(), secrets);
    const kept = key === undefined ? undefined : loadContext.pages.serve(key.key, secrets, loadContext.clientAddress);
    if (kept !== undefined) {
      void forRender.cancel();
      responseHeaders.set("Server-Timing", 'page-cache;desc="hit"');
      return htmlResponse(kept, responseHeaders, responseStatusCode);
    }
  }

  // The root loader has worked the language out for this request already (unless it failed).
  const language = isLanguage(rootData?.locale) ? rootData.locale : await loadContext.i18n.getLocale(request);
  const i18n = await loadContext.i18n.createInstance(language, rootData?.wordingSet ?? COMMON_NS);

  let status = responseStatusCode;
  const html = await renderPage(
    <NonceProvider value={loadContext.cspNonce}>
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
      </I18nextProvider>
    </NonceProvider>,
    (error) => {
      status = 500;
      loadContext.logger.error({ err: error, path: new URL(request.url).pathname }, "render error");
    },
  );

  if (key !== undefined && status === 200) {
    const by = key.keepable ? loadContext.pages.worthKeeping(key.key, loadContext.clientAddress) : undefined;
    const keep = by !== undefined;
    if (keep) loadContext.pages.keep(key.key, html, secrets, { by, address: loadContext.clientAddress });
    responseHeaders.set("Server-Timing", `page-cache;desc="${keep ? "kept" : "miss"}"`);
  }
  return htmlResponse(html, responseHeaders, status);
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests (the buyer navigated away) are not errors worth a log line.
  if (request.signal.aborted) return;
  context.logger.error({ err: error, path: new URL(request.url).pathname }, "loader or action error");
};
