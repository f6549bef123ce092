import type { Logger } from "pino";
import type { CompInput, CompIssued, CompOrders, CompRefusal } from "~/ticketing/comp-orders.server";
import type { Fulfilment } from "./fulfilment.server";

// A comp (issue 55 item 5): the domain sells its seats to a paid order of nothing, then the same
// fulfilment as every paid order issues its e-tickets and queues its confirmation email.

export function createComps(deps: {
  compOrders: CompOrders;
  fulfilment: Pick<Fulfilment, "orderPaid">;
  logger: Pick<Logger, "error">;
}) {
  return {
    async issue(input: CompInput): Promise<CompIssued | CompRefusal> {
      const issued = await deps.compOrders.issue(input);
      if (!issued.ok) return issued;
      // As after a payment: the order stands whatever happens here, and issuing tickets again
      // (fulfilment is idempotent) is what putting it right takes.
      await deps.fulfilment.orderPaid(issued.order).catch((error: unknown) => {
        deps.logger.error(
          { err: error, orderId: issued.order.id },
          "issuing a comp's tickets or queueing its email failed",
        );
      });
      return issued;
    },
  };
}

export type Comps = ReturnType<typeof createComps>;
