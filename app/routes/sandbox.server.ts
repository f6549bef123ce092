import { redirect } from "@remix-run/node";
import type { SandboxGateway, SandboxStepKind } from "~/payments/sandbox.server";

// The sandbox gateway's pages (routes/sandbox.*.tsx) share these: the gateway's answers turned
// into 404s and redirects. They live beside the pages, not in the gateway, which knows no Remix.

const notFound = () => new Response(null, { status: 404, statusText: "Not Found" });

/** The gateway, or a 404 when a real provider takes payments and the sandbox pages do not exist. */
export function requireSandbox(gateway: SandboxGateway | null | undefined): SandboxGateway {
  if (!gateway) throw notFound();
  return gateway;
}

/**
 * The gateway for its dashboard, which lists every buyer's order, card brand and last four digits:
 * a tester's page, so a 404 wherever real buyers are (staging and production), even when the
 * sandbox stands in for a provider there.
 */
export function requireSandboxDashboard(gateway: SandboxGateway | null | undefined, production: boolean) {
  if (production) throw notFound();
  return requireSandbox(gateway);
}

/**
 * The step a sandbox page shows. An answered one sends the buyer back (they pressed Back after
 * answering, or reloaded) rather than asking again; an unknown one is a 404.
 */
export async function loadSandboxStep(
  gateway: SandboxGateway | null | undefined,
  reference: string | undefined,
  kind: SandboxStepKind,
) {
  const step = await requireSandbox(gateway).step(reference ?? "", kind);
  if (!step) throw notFound();
  if (!step.outstanding) throw redirect(step.returnUrl, 303);
  return {
    amount: step.amount,
    currency: step.currency,
    description: step.description,
    brand: step.brand,
    last4: step.last4,
  };
}

/** Sends the buyer back after an answer (303, so a reload does not post it again), or 404. */
export function returnFromSandbox(url: string | null): Response {
  if (!url) throw notFound();
  return redirect(url, 303);
}
