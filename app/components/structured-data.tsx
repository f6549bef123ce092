import { serializeForScript } from "~/config/public-env";
import { useNonce } from "./nonce";

/**
 * schema.org data for search engines, as JSON-LD. A data block, not a script (browsers run no
 * `application/ld+json`), but it carries the page's nonce all the same: the CSP then need not
 * tell the two apart, and the rule "every script element has the nonce" stays without exception.
 * Serialised with `<` escaped, so no text from the catalogue (a show named "</script>…") can end
 * the element early.
 */
export function StructuredData({ data }: { data: unknown }) {
  const nonce = useNonce();
  return (
    <script
      type="application/ld+json"
      nonce={nonce}
      // Our own serialisation of the page's data: the same on the server and in the browser.
      dangerouslySetInnerHTML={{ __html: serializeForScript(data) }}
    />
  );
}
