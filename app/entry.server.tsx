import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceProvider } from "~/components/nonce";
import { HtmlSpliceProvider } from "~/components/spliced-html";
import { KeptFormsProvider, type KeptForms } from "~/components/use-schema-form";
import { keptByKey } from "~/kept";
import { htmlSplicer, type HtmlSplicer } from "~/web/spliced-html.server";
import { COMMON_NS, isLanguage } from "~/i18n/languages";
import { keptPages } from "~/web/kept-pages.server";
import { compressPage, encodingFor, type Encoding } from "~/web/compression.server";
import type { PageHandle } from "~/root";

export const streamTimeout = 5_000;

const DOCTYPE = Buffer.from("<!DOCTYPE html>");
const DOCUMENT_END = Buffer.from("</body></html>");

/**
 * The page as sent, from React's HTML: the doctype first (React writes it only when it streams),
 * the HTML the render left to be spliced in (the seat map's rows) in place, and the document's
 * closing `</body></html>` at the very end. Remix writes the data it hands the browser as scripts
 * after the document, which ends with those tags: after `</html>` HTML allows nothing, and the Nu
 * checker and simpler parsers stop there. Browsers put them in the body anyway; moved there, the
 * page means what it meant and is valid. The HTML is encoded once and moved about as bytes: React
 * builds it by joining strings, and each search or join of the string copied all of it again
 * (writing a checkout page took a tenth of what rendering it did).
 */
export function writtenPage(html: string, splicer: HtmlSplicer): Buffer[] {
  const written = Buffer.from(html);
  const at = written.lastIndexOf(DOCUMENT_END);
  const page = Buffer.concat(
    at < 0
      ? [DOCTYPE, written]
      : [DOCTYPE, written.subarray(0, at), written.subarray(at + DOCUMENT_END.length), DOCUMENT_END],
  );
  if (splicer.empty) return [page];
  const pieces = splicer.take(page);
  const held = splicer.end();
  return held.length > 0 ? [...pieces, held] : pieces;
}

/**
 * Forms as the server writes them before anyone has sent them (app/components/use-schema-form.ts):
 * one per form id and defaults, so a few dozen in all.
 */
const keptForms = keptByKey<unknown>(500);

/** Up to this many bytes of pages are kept (app/web/kept-pages.server.ts): about 60 seat maps. */
const KEPT_PAGES_BYTES = 32 * 1024 * 1024;
const kept = keptPages(KEPT_PAGES_BYTES);

/** Whether every route of the page says every visitor sees it alike (the root asks nothing). */
function isKeptPage(request: Request, status: number, context: EntryContext) {
  if (request.method !== "GET" || status !== 200) return false;
  return context.staticHandlerContext.matches.every(
    ({ route }) =>
      route.id === "root" || (context.routeModules[route.id]?.handle as PageHandle | undefined)?.keptPage === true,
  );
}

/**
 * The data Remix hands the browser, read whole. No loader returns promises, so the whole of it is
 * ready as the render starts. Decoded by Buffer rather than a TextDecoder, which set up a new ICU
 * converter for every page (0.4% of a checkout page's CPU); turbo-stream wrote it with a
 * TextEncoder, so it is UTF-8 either way.
 */
async function handoffText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString("utf8");
}

/**
 * A page's response: its HTML as chunks, already compressed in `encoding` if one is given (the
 * site's compression leaves an encoded body be). As a stream: a Response given the bytes
 * themselves copies them first.
 */
function htmlResponse(chunks: readonly Uint8Array[], encoding: Encoding | undefined, headers: Headers, status: number) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  if (encoding) {
    headers.set("Content-Encoding", encoding);
    headers.append("Vary", "Accept-Encoding");
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers, status });
}

/** A page's HTML, compressed in `encoding` as the site's compression would have, if it would have. */
async function pageResponse(
  chunks: readonly Buffer[],
  encoding: Encoding | undefined,
  headers: Headers,
  status: number,
) {
  // Copied into one buffer only when there is more than one chunk.
  const compressed = await compressPage(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), encoding);
  return compressed
    ? htmlResponse([compressed], encoding, headers, status)
    : htmlResponse(chunks, undefined, headers, status);
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
  const secrets = { nonce: loadContext.cspNonce, csrf: rootData?.csrf };
  const encoding = encodingFor(request.headers.get("accept-encoding"));

  // No loader returns promises (deferred data), so the data Remix hands the browser is all there
  // once the loaders have run: read whole, it goes out as one script (patches/@remix-run+react),
  // and the page is rendered in one pass and sent whole (decision 0036).
  const handoff = remixContext.serverHandoffStream ? await handoffText(remixContext.serverHandoffStream) : undefined;
  if (handoff !== undefined) {
    // RemixServer (patched) writes the text given it, and does not read the stream, now spent.
    remixContext = { ...remixContext, serverHandoffStream: undefined, serverHandoffText: handoff } as EntryContext;
  }

  let keepAs: string | undefined;
  if (handoff !== undefined && isKeptPage(request, responseStatusCode, remixContext)) {
    // The buyer's own token is not part of what the page is written from: it is put back in.
    keepAs = `${request.url}\n${secrets.csrf ? handoff.replaceAll(secrets.csrf, "\0csrf") : handoff}`;
    const served = kept.serve(keepAs, secrets, encoding);
    if (served) {
      if (served.encoding) return htmlResponse(served.chunks, served.encoding, responseHeaders, responseStatusCode);
      // Not compressed once yet (or it cannot be): compressed as a page written now would be.
      return pageResponse(served.chunks, encoding, responseHeaders, responseStatusCode);
    }
  }

  // The root loader has worked the language out for this request already (unless it failed).
  const language = isLanguage(rootData?.locale) ? rootData.locale : await loadContext.i18n.getLocale(request);
  const i18n = await loadContext.i18n.createInstance(language, rootData?.wordingSet ?? COMMON_NS);

  // One synchronous pass: the data is all there (no loader defers any), the site has no Suspense
  // boundary left to wait on, and renderToString writes a string without the stream's buffers,
  // chunks and turns of the event loop (decision 0036).
  const splicer = htmlSplicer();
  const html = renderToString(
    <NonceProvider value={loadContext.cspNonce}>
      <HtmlSpliceProvider value={splicer.sink}>
        <KeptFormsProvider value={keptForms as KeptForms}>
          <I18nextProvider i18n={i18n}>
            <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
          </I18nextProvider>
        </KeptFormsProvider>
      </HtmlSpliceProvider>
    </NonceProvider>,
  );
  const chunks = writtenPage(html, splicer);
  if (keepAs !== undefined) kept.keep(keepAs, chunks, secrets);
  return pageResponse(chunks, encoding, responseHeaders, responseStatusCode);
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests (the buyer navigated away) are not errors worth a log line.
  if (request.signal.aborted) return;
  context.logger.error({ err: error, path: new URL(request.url).pathname }, "loader or action error");
};
