/**
 * Where the server's render can leave HTML it already holds as bytes: `add` takes them and
 * answers the marker to render in their place, which the page's stream replaces with them on the
 * way out (app/web/spliced-html.server.ts, decision 0026). Only the server's render of a page has
 * one; a component without one renders its HTML itself.
 */
export interface HtmlSplice {
  add(parts: readonly Uint8Array[]): string;
}
