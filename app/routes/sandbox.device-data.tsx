import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { PostForm } from "~/components/post-form";
import { loadSandboxStep, requireSandbox, returnFromSandbox } from "./sandbox.server";

// The sandbox bank's device data collection (the 3-D Secure "method" step). A real bank reads the
// browser from the request the checkout's form sends here (and, with script, fingerprints it in a
// hidden frame); the sandbox takes that POST as the collection and sends the buyer straight back,
// so a buyer without script presses Continue once, on our verify page. The page itself is only
// for a buyer who comes here by address: it submits itself with script, or has a Continue button.

export const handle = { titleKey: "sandbox.deviceData.title" };

export async function loader({ params, context }: LoaderFunctionArgs) {
  await loadSandboxStep(context.sandboxGateway, params.reference, "deviceData");
  return null;
}

export async function action({ params, context }: ActionFunctionArgs) {
  const gateway = requireSandbox(context.sandboxGateway);
  return returnFromSandbox(await gateway.completeDeviceData(params.reference ?? ""));
}

export default function SandboxDeviceData() {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    // requestSubmit goes through Remix's Form; browsers without it still get a plain POST.
    if (typeof element.requestSubmit === "function") element.requestSubmit();
    else element.submit();
  }, []);
  return (
    <>
      <h1>{t("sandbox.deviceData.title")}</h1>
      <p className="message">{t("sandbox.notice")}</p>
      <p role="status">{t("sandbox.deviceData.body")}</p>
      <PostForm ref={form}>
        <noscript>
          <p>{t("sandbox.deviceData.noscript")}</p>
          <button type="submit" className="button">
            {t("sandbox.deviceData.continue")}
          </button>
        </noscript>
      </PostForm>
    </>
  );
}
