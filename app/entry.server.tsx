import { Transform } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceProvider } from "~/components/nonce";
import { HtmlSpliceProvider } from "~/components/spliced-html";
import { htmlSplicer, type HtmlSplicer } from "~/web/spliced-html.server";
import { COMMON_NS, isLanguage } from "~/i18n/languages";
import { keptPages } from "~/web/kept-pages.server";
import { compressPage, encodingFor, type Encoding } from "~/web/compression.server";
import type { PageHandle } from "~/root";

export const streamTimeout = 5_000;

/**
 * React 18.3.1's stream, when a multi-byte character ("£") does not fit at the end of its
 * 2,048-byte buffer, sends the whole buffer, unwritten zero bytes and all (facebook/react#26228,
 * fixed after 18). A NUL is never part of UTF-8's multi-byte characters, nor of any page we
 * mean to send, and text browsers show it or stop at it: it is dropped on the way out.
 */
export function withoutNul(chunk: Buffer): Buffer {
  return chunk.includes(0) ? Buffer.from(chunk.filter((byte) => byte !== 0)) : chunk;
}

const DOCUMENT_END = Buffer.from("</body></html>");

/**
 * Keeps a page's closing `</body></html>` back until the stream ends. Remix streams its data (and
 * React its late boundaries) as scripts after the document's shell, which ends with those tags:
 * they arrived after `</html>`, where HTML allows nothing, and the Nu checker and simpler parsers
 * stop. Browsers put them in the body anyway; moved there, the page means what it meant and is
 * valid. Bytes that might begin the closing tags wait for the next chunk, so no split is missed.
 */
export function documentEndMover() {
  let held = Buffer.alloc(0);
  let found = false;
  return {
    take(chunk: Buffer): Buffer {
      if (found) return chunk;
      const joined = held.length ? Buffer.concat([held, chunk]) : chunk;
      const at = joined.indexOf(DOCUMENT_END);
      if (at >= 0) {
        found = true;
        held = Buffer.alloc(0);
        return Buffer.concat([joined.subarray(0, at), joined.subarray(at + DOCUMENT_END.length)]);
      }
      const keep = Math.min(DOCUMENT_END.length - 1, joined.length);
      held = Buffer.from(joined.subarray(joined.length - keep));
      return joined.subarray(0, joined.length - keep);
    },
    end(): Buffer {
      return found ? DOCUMENT_END : held;
    },
  };
}

/**
 * React writes its HTML in chunks of a few KB, and each chunk then passes through web streams,
 * express and the compressor on its own: the 2,341-seat map is about 180 of them. Chunks written
 * in the same turn of the event loop leave as one; nothing waits longer than that turn, so a page
 * that streams still streams. HTML the render left to be spliced in (the seat map's rows) goes in
 * on the way (`splicer`).
 */
export function coalescedStream(splicer: HtmlSplicer) {
  const ending = documentEndMover();
  let pending: Buffer[] = [];
  let scheduled = false;
  const stream = new Transform({
    // Not destroyed once it has ended: React's pipe takes the destination's "close" for a buyer
    // who went away and aborts the render, which after a finished page ends the stream a second
    // time, and Node builds an error (with its stack) for that, on every page (issue 19's
    // profile, about 0.7% of a page's CPU). A buyer who goes away mid-page still closes it: the
    // response's stream is cancelled, which destroys this one.
    autoDestroy: false,
    transform(chunk: Buffer, _encoding, done) {
      pending.push(chunk);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          flush();
        });
      }
      done();
    },
    final(done) {
      flush();
      const tail = splicer.end();
      if (tail.length > 0) out(ending.take(withoutNul(tail)));
      const rest = ending.end();
      if (rest.length > 0) out(rest);
      done();
    },
  });
  function flush() {
    if (pending.length === 0) return;
    const chunks = pending;
    pending = [];
    const pieces = splicer.take(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    // NULs dropped once, from React's chunks and the spliced HTML alike.
    const chunk = ending.take(withoutNul(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)));
    if (chunk.length > 0) out(chunk);
  }
  function out(chunk: Buffer) {
    stream.push(chunk);
  }
  return stream;
}

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
 * ready as the render starts.
 */
async function handoffText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
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
      const compressed = await compressPage(Buffer.concat(served.chunks), encoding);
      return compressed
        ? htmlResponse([compressed], encoding, responseHeaders, responseStatusCode)
        : htmlResponse(served.chunks, undefined, responseHeaders, responseStatusCode);
    }
  }

  // The root loader has worked the language out for this request already (unless it failed).
  const language = isLanguage(rootData?.locale) ? rootData.locale : await loadContext.i18n.getLocale(request);
  const i18n = await loadContext.i18n.createInstance(language, rootData?.wordingSet ?? COMMON_NS);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const splicer = htmlSplicer();
    const send = () => {
      const chunks: Buffer[] = [];
      const body = coalescedStream(splicer);
      body.on("data", (chunk: Buffer) => chunks.push(chunk));
      body.once("end", () => {
        // Kept only once written whole, and only if nothing in it failed.
        if (keepAs !== undefined && !failed) kept.keep(keepAs, chunks, secrets);
        compressPage(Buffer.concat(chunks), encoding).then(
          (compressed) =>
            resolve(
              compressed
                ? htmlResponse([compressed], encoding, responseHeaders, responseStatusCode)
                : htmlResponse(chunks, undefined, responseHeaders, responseStatusCode),
            ),
          reject,
        );
      });
      pipe(body);
    };
    // A render still unfinished by then is cut short (abort is defined by the time this fires).
    const timer = setTimeout(() => {
      failed = true;
      abort();
    }, streamTimeout + 1_000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={loadContext.cspNonce}>
        <HtmlSpliceProvider value={splicer.sink}>
          <I18nextProvider i18n={i18n}>
            <RemixServer
              context={remixContext}
              url={request.url}
              abortDelay={streamTimeout}
              nonce={loadContext.cspNonce}
            />
          </I18nextProvider>
        </HtmlSpliceProvider>
      </NonceProvider>,
      {
        nonce: loadContext.cspNonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          // A render that finished has nothing to abort: its timer is cleared, not left to fire
          // six seconds after every request and call abort on a finished render.
          clearTimeout(timer);
          send();
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          // Errors inside the shell are reported by onShellError; log only the later ones.
          if (shellRendered) loadContext.logger.error({ err: error }, "render error");
        },
      },
    );
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests (the buyer navigated away) are not errors worth a log line.
  if (request.signal.aborted) return;
  context.logger.error({ err: error, path: new URL(request.url).pathname }, "loader or action error");
};
