import { Transform } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceProvider } from "~/components/nonce";
import { HtmlSpliceProvider } from "~/components/spliced-html";
import { htmlSplicer, type HtmlSplicer } from "~/web/spliced-html.server";
import { COMMON_NS, isLanguage } from "~/i18n/languages";
import { keptPages } from "~/web/kept-pages.server";
import { encodingFor } from "~/web/compression.server";
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
export function coalescedStream(splicer: HtmlSplicer, written?: (chunk: Buffer) => void) {
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
    written?.(chunk);
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
 * The data Remix hands the browser, read whole, and a stream that gives it again for the render.
 * A kept page's loaders return no promises, so the whole of it is ready as the render starts.
 */
async function handoffData(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  const text = chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
  const again = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return { text, again };
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
  // Crawlers and script-less clients get the whole page at once; browsers get it streamed.
  const streamed = !isbot(request.headers.get("user-agent"));
  const secrets = { nonce: loadContext.cspNonce, csrf: rootData?.csrf };

  let keepAs: string | undefined;
  if (remixContext.serverHandoffStream && isKeptPage(request, responseStatusCode, remixContext)) {
    const { text, again } = await handoffData(remixContext.serverHandoffStream);
    remixContext = { ...remixContext, serverHandoffStream: again };
    // The buyer's own token is not part of what the page is written from: it is put back in.
    const data = secrets.csrf ? text.replaceAll(secrets.csrf, "\0csrf") : text;
    keepAs = `${request.url}\n${streamed ? "streamed" : "whole"}\n${data}`;
    const served = kept.serve(keepAs, secrets, encodingFor(request.headers.get("accept-encoding")));
    if (served) {
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      // Already compressed as the site's compression would have: it leaves an encoded body be.
      if (served.encoding) {
        responseHeaders.set("Content-Encoding", served.encoding);
        responseHeaders.append("Vary", "Accept-Encoding");
      }
      // As a stream: a Response given the bytes themselves copies them first.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of served.chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      return new Response(body, { headers: responseHeaders, status: responseStatusCode });
    }
  }

  // The root loader has worked the language out for this request already (unless it failed).
  const language = isLanguage(rootData?.locale) ? rootData.locale : await loadContext.i18n.getLocale(request);
  const i18n = await loadContext.i18n.createInstance(language, rootData?.wordingSet ?? COMMON_NS);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let failed = false;
    const splicer = htmlSplicer();
    const written: Buffer[] = [];
    const send = () => {
      shellRendered = true;
      const body = coalescedStream(splicer, keepAs === undefined ? undefined : (chunk) => written.push(chunk));
      if (keepAs !== undefined) {
        const key = keepAs;
        // Kept only once written whole, and only if nothing in it failed.
        body.once("end", () => {
          if (!failed) kept.keep(key, written, secrets);
        });
      }
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
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
          if (streamed) send();
        },
        onAllReady() {
          // A render that finished has nothing to abort: its timer is cleared, not left to fire
          // six seconds after every request and call abort on a finished render.
          clearTimeout(timer);
          if (!streamed) send();
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
