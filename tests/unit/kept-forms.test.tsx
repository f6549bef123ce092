// @vitest-environment node
// The server keeps Conform's state for a form it writes before anyone has sent it, under the
// form's own id, when its defaults are none or the same for everyone (app/components/use-schema-form.ts).
// What it writes must be what it writes without keeping anything, every time, ids included.
import { useId } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { KeptFormsProvider, useSchemaForm, type KeptForms } from "~/components/use-schema-form";
import { keptByKey } from "~/kept";

type Reply = Parameters<typeof useSchemaForm>[1];

function Payment({ reply, saved }: { reply?: Reply; saved?: { promoCode: string } }) {
  const [promo, promoFields] = useSchemaForm((checks) => checks.promoSchema, reply, undefined, { id: "promo" });
  const [pay, payFields] = useSchemaForm((checks) => checks.promoSchema, undefined, { promoCode: "CARD" }, {
    id: "pay",
    sameForEveryone: true,
  });
  const [own, ownFields] = useSchemaForm((checks) => checks.promoSchema, undefined, saved, { id: "own" });
  const [anonymous, anonymousFields] = useSchemaForm((checks) => checks.promoSchema, undefined);
  // An id React makes after the forms: the browser's render makes the same one.
  const after = useId();
  return (
    <>
      {(
        [
          [promo, promoFields],
          [pay, payFields],
          [own, ownFields],
          [anonymous, anonymousFields],
        ] as [typeof promo, typeof promoFields][]
      ).map(([form, fields]) => (
        <form key={form.id} id={form.id} data-errors={JSON.stringify(form.allErrors)}>
          <input name={fields.promoCode.name} defaultValue={fields.promoCode.defaultValue} />
          <p>{fields.promoCode.errors?.join(", ")}</p>
        </form>
      ))}
      <p id={after}>after</p>
    </>
  );
}

/** A keeper that counts what it made. */
function counting() {
  const kept = keptByKey<unknown>(100);
  const made: string[] = [];
  const keeper: KeptForms = {
    get: <Value,>(key: string, make: () => Value) =>
      kept.get(key, () => {
        made.push(key.split("\u0000")[0]!);
        return make();
      }) as Value,
  };
  return { keeper, made };
}

const written = (page: JSX.Element, keeper?: KeptForms) =>
  renderToString(keeper ? <KeptFormsProvider value={keeper}>{page}</KeptFormsProvider> : page);

describe("forms kept by the server", () => {
  it("are written as they are without keeping, the first time and every time after", () => {
    const { keeper } = counting();
    const page = <Payment saved={{ promoCode: "SAVED" }} />;
    const expected = written(page);
    expect(expected).toContain('value="CARD"');
    expect(expected).toContain('value="SAVED"');
    for (let round = 0; round < 3; round += 1) expect(written(page, keeper)).toBe(expected);
  });

  it("keep only forms with an id of their own, not yet sent, whose defaults are the same for everyone", () => {
    const { keeper, made } = counting();
    for (let round = 0; round < 3; round += 1) written(<Payment saved={{ promoCode: "SAVED" }} />, keeper);
    // Made once each, then kept; the buyer's own defaults and the form without an id are not kept.
    expect(made).toEqual(["promo", "pay"]);
  });

  it("write a form the buyer has sent with its reply, never a kept one", () => {
    const { keeper } = counting();
    written(<Payment />, keeper);
    const reply: Reply = {
      status: "error",
      initialValue: { promoCode: "WRONG" },
      error: { promoCode: ["promo.notFound"] },
    };
    const html = written(<Payment reply={reply} />, keeper);
    expect(html).toBe(written(<Payment reply={reply} />));
    expect(html).toContain('value="WRONG"');
    expect(html).toContain("promo.notFound");
  });
});
