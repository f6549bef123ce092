import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { compSchema, parseWithZod } from "~/forms/schemas.server";
import { message, translateMessage } from "~/forms/checkout/messages";
import { COMP_REASON_MAX_LENGTH, TYPED_SEATS_MAX_LENGTH, type SeatChoice } from "~/views/house-seats";
import { salePerformanceChoice } from "~/web/staff-performances.server";
import { requireStaff } from "~/web/staff.server";
import { allErrorsForSummary } from "~/components/all-errors-summary";
import { ErrorSummary } from "~/components/error-summary";
import { CheckboxField, TextField } from "~/components/form-fields";
import { ChosenPerformance, SalePerformanceChoice, StaffHomeLink } from "~/components/performance-choice";
import { PostForm } from "~/components/post-form";
import { SeatCheckboxes } from "~/components/seat-checkboxes";
import { useSchemaForm } from "~/components/use-schema-form";
import { refusedSeatMessages, seatNames } from "./staff-seats.server";

// Complimentary tickets (issue 55 item 5, decision 0063), without script: choose the performance
// (a GET form), then tick seats (free ones, or house seats, which go into the comp) or type their
// names, name the recipient and the reason. The comp is an order of nothing with e-tickets and the
// confirmation email, as a paid order has; the answer gives its number and its e-tickets' link.

export const handle = { titleKey: "staff.comps.title" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "issueComp");
  const choice = await salePerformanceChoice(request, context);
  return { ...choice, choices: choice.chosen ? await context.houseSeats.choices(choice.chosen.id) : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { staff } = await requireStaff(request, context, "issueComp");
  const formData = await request.formData();
  const ticked = formData.getAll("seat").map(Number);
  const submission = parseWithZod(formData, { schema: compSchema });
  const refused = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status: number) =>
    data({ result: submission.reply(errors), issued: null, ticked }, { status });
  if (submission.status !== "success") return refused({}, 400);
  const input = submission.value;
  let seatIds = input.seat;
  if (input.typedSeats) {
    const typed = await context.houseSeats.seatsByName(input.performance, input.typedSeats);
    if (!typed.ok)
      return refused(
        {
          fieldErrors: {
            typedSeats: [
              typed.unknown.length
                ? message("staff.comps.unknownSeats", { seats: typed.unknown.join(", ") })
                : message("staff.comps.ambiguousSeats", { seats: typed.ambiguous.join(", ") }),
            ],
          },
        },
        400,
      );
    seatIds = [...new Set([...seatIds, ...typed.seatIds])];
  }
  if (seatIds.length === 0) return refused({ fieldErrors: { seat: ["staff.comps.seatsMissing"] } }, 400);

  const issued = await context.comps.issue({
    performanceId: input.performance,
    seatIds,
    name: input.name,
    email: input.email,
    reason: input.reason,
    staffId: staff.id,
    restrictedConfirmed: input.restricted,
  });
  if (!issued.ok) {
    switch (issued.reason) {
      case "seat-limit":
        return refused({ fieldErrors: { seat: [message("staff.comps.seatLimit", { count: issued.seatLimit })] } }, 400);
      case "restricted":
        return refused(
          {
            formErrors: issued.seats.map((seat) =>
              message("staff.comps.restrictedSeat", { section: seat.section, row: seat.row, seat: seat.seat }),
            ),
            fieldErrors: { restricted: ["staff.comps.restrictedMissing"] },
          },
          400,
        );
      case "unavailable":
        return refused({ formErrors: refusedSeatMessages(issued.seats) }, 409);
      case "busy":
        return refused({ formErrors: ["staff.houseSeats.busy"] }, 503);
      default:
        return refused({ formErrors: ["staff.comps.notFound"] }, 400);
    }
  }
  const { order } = issued;
  return {
    result: submission.reply({ resetForm: true }),
    issued: {
      number: order.number,
      name: order.customer_name,
      email: order.email,
      seats: seatNames(issued.seats),
      eTickets: `/e-tickets/${order.access_key}`,
    },
    ticked: [],
  };
}

const OUTCOME_ID = "comp-outcome";

export default function Comps() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { chosen, choices } = loaded;
  const answered = useActionData<typeof action>();
  const [form, fields] = useSchemaForm((checks) => checks.compSchema, answered?.result, undefined, {
    id: "comp",
    revalidate: false,
  });
  if (!chosen || !choices) return <SalePerformanceChoice title={t("staff.comps.title")} choice={loaded} />;
  const issued = answered?.issued ?? null;
  const seatError = fields.seat.errors?.[0];
  const labelOf = (seat: SeatChoice) =>
    seat.state === "free" && seat.restrictions.length > 0
      ? t("staff.comps.seatRestricted", { seat: seat.seat })
      : t(`staff.houseSeats.seat.${seat.state}`, { seat: seat.seat });
  return (
    <>
      <ErrorSummary
        errors={allErrorsForSummary(form.allErrors, ["seat", "typedSeats", "name", "email", "reason", "restricted"], t)}
      />
      <div className="staff-outcome" id={OUTCOME_ID} role="status">
        {issued ? (
          <>
            <h2>{t("staff.comps.issued")}</h2>
            <p>
              {t("staff.comps.issuedText", {
                number: issued.number,
                name: issued.name,
                email: issued.email,
                seats: issued.seats.map((seat) => t("tickets.seatName", seat)).join("; "),
              })}
            </p>
            <p>
              <a href={issued.eTickets}>{t("staff.comps.eTickets", { number: issued.number })}</a>
            </p>
          </>
        ) : null}
      </div>
      <h1>{t("staff.comps.title")}</h1>
      <ChosenPerformance performance={chosen} wording="staff.houseSeats" changeTo="/staff/comps" />
      <PostForm id={form.id} onSubmit={form.onSubmit} key={form.key}>
        <input type="hidden" name="performance" value={chosen.id} />
        <SeatCheckboxes
          choices={choices}
          name="seat"
          legend={t("staff.comps.seats")}
          hint={t("staff.comps.seatsHint", { count: choices.seatLimit })}
          error={seatError ? translateMessage(seatError, t) : undefined}
          selectable={(seat) => seat.state !== "taken"}
          labelOf={labelOf}
          checked={new Set(answered?.ticked ?? [])}
        />
        <TextField
          field={fields.typedSeats}
          label={t("staff.comps.typedSeats")}
          hint={t("staff.comps.typedSeatsHint", { count: TYPED_SEATS_MAX_LENGTH })}
          autoComplete="off"
        />
        <TextField field={fields.name} label={t("staff.comps.name")} autoComplete="off" />
        <TextField
          field={fields.email}
          label={t("staff.comps.email")}
          hint={t("staff.comps.emailHint")}
          type="email"
          autoComplete="off"
        />
        <TextField
          field={fields.reason}
          label={t("staff.comps.reason")}
          hint={t("staff.comps.reasonHint", { count: COMP_REASON_MAX_LENGTH })}
          autoComplete="off"
        />
        <CheckboxField
          field={fields.restricted}
          label={t("staff.comps.restricted")}
          hint={t("staff.comps.restrictedHint")}
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("staff.comps.issue")}
          </button>
        </div>
      </PostForm>
      <StaffHomeLink />
    </>
  );
}
