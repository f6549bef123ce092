import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { holdSeatsSchema, parseWithZod, releaseSeatsSchema } from "~/forms/schemas.server";
import { translateMessage } from "~/forms/checkout/messages";
import { formatDateTime } from "~/i18n/format";
import { HOUSE_REASON_MAX_LENGTH, type SeatName } from "~/views/house-seats";
import { salePerformanceChoice } from "~/web/staff-performances.server";
import { requireStaff } from "~/web/staff.server";
import { allErrorsForSummary } from "~/components/all-errors-summary";
import { ErrorSummary } from "~/components/error-summary";
import { TextField } from "~/components/form-fields";
import { ChosenPerformance, SalePerformanceChoice, StaffHomeLink } from "~/components/performance-choice";
import { PostForm } from "~/components/post-form";
import { SeatCheckboxes } from "~/components/seat-checkboxes";
import { useSchemaForm } from "~/components/use-schema-form";
import { refusedSeatMessages, seatNames } from "./staff-seats.server";

// House seats (issue 55 item 5, decision 0063), without script: choose the performance (a GET
// form, so the address keeps it), then tick free seats and give a reason to hold them off sale, or
// tick house seats in the list to release them. Every seat is taken or not by the domain, all or
// nothing; the audit entry is written with the change. Who did it is the session's.

export const handle = { titleKey: "staff.houseSeats.title" };

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "holdSeats");
  const choice = await salePerformanceChoice(request, context);
  const { chosen } = choice;
  const [choices, house] = chosen
    ? await Promise.all([context.houseSeats.choices(chosen.id), context.houseSeats.list(chosen.id)])
    : [null, []];
  return { ...choice, choices, house };
}

type Outcome = { kind: "held" | "released"; seats: ReturnType<typeof seatNames> };

export async function action({ request, context }: ActionFunctionArgs) {
  const { staff } = await requireStaff(request, context, "holdSeats");
  const formData = await request.formData();
  const staffId = staff.id;
  if (formData.get("form") === "release") {
    const submission = parseWithZod(formData, { schema: releaseSeatsSchema });
    if (submission.status !== "success")
      return data({ form: "release", result: submission.reply(), outcome: null, ticked: [] }, { status: 400 });
    const { performance, release } = submission.value;
    const released = await context.houseSeats.release({ performanceId: performance, seatIds: release, staffId });
    if (!released.ok) {
      const formErrors =
        released.reason === "unavailable"
          ? refusedSeatMessages(released.seats)
          : [released.reason === "busy" ? "staff.houseSeats.busy" : "staff.houseSeats.performanceMissing"];
      return data(
        { form: "release", result: submission.reply({ formErrors }), outcome: null, ticked: release },
        { status: released.reason === "busy" ? 503 : 409 },
      );
    }
    const outcome: Outcome = { kind: "released", seats: seatNames(released.seats) };
    return { form: "release", result: submission.reply({ resetForm: true }), outcome, ticked: [] };
  }
  const submission = parseWithZod(formData, { schema: holdSeatsSchema });
  if (submission.status !== "success")
    return data(
      { form: "hold", result: submission.reply(), outcome: null, ticked: formData.getAll("seat").map(Number) },
      { status: 400 },
    );
  const { performance, reason, seat } = submission.value;
  const held = await context.houseSeats.hold({ performanceId: performance, seatIds: seat, reason, staffId });
  if (!held.ok) {
    const formErrors =
      held.reason === "unavailable"
        ? refusedSeatMessages(held.seats)
        : [held.reason === "busy" ? "staff.houseSeats.busy" : "staff.houseSeats.performanceMissing"];
    return data(
      { form: "hold", result: submission.reply({ formErrors }), outcome: null, ticked: seat },
      { status: held.reason === "busy" ? 503 : 409 },
    );
  }
  const outcome: Outcome = { kind: "held", seats: seatNames(held.seats) };
  return { form: "hold", result: submission.reply({ resetForm: true }), outcome, ticked: [] };
}

const OUTCOME_ID = "house-seats-outcome";

export default function HouseSeats() {
  const { t, i18n } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { chosen, choices, house } = loaded;
  const answered = useActionData<typeof action>();
  const holdAnswer = answered?.form === "hold" ? answered : undefined;
  const releaseAnswer = answered?.form === "release" ? answered : undefined;
  const [holdForm, holdFields] = useSchemaForm((checks) => checks.holdSeatsSchema, holdAnswer?.result, undefined, {
    id: "hold-seats",
    revalidate: false,
  });
  const [releaseForm] = useSchemaForm((checks) => checks.releaseSeatsSchema, releaseAnswer?.result, undefined, {
    id: "release-seats",
    revalidate: false,
  });
  if (!chosen || !choices) return <SalePerformanceChoice title={t("staff.houseSeats.title")} choice={loaded} />;
  const outcome = answered?.outcome ?? null;
  const name = (seat: Pick<SeatName, "section" | "row" | "seat">) => t("tickets.seatName", seat);
  const seatError = holdFields.seat.errors?.[0];
  const releaseErrors = releaseForm.allErrors;
  const releaseTicked = new Set(releaseAnswer?.ticked ?? []);
  const summary = [
    ...allErrorsForSummary(releaseErrors, ["release"], t),
    ...allErrorsForSummary(holdForm.allErrors, ["reason", "seat"], t),
  ];
  return (
    <>
      <ErrorSummary errors={summary} />
      <div className="staff-outcome" id={OUTCOME_ID} role="status">
        {outcome ? (
          <p>
            {t(`staff.houseSeats.${outcome.kind}`, {
              count: outcome.seats.length,
              seats: outcome.seats.map(name).join("; "),
            })}
          </p>
        ) : null}
      </div>
      <h1>{t("staff.houseSeats.title")}</h1>
      <ChosenPerformance performance={chosen} wording="staff.houseSeats" changeTo="/staff/house-seats" />

      <h2>{t("staff.houseSeats.currentHeading")}</h2>
      {house.length === 0 ? (
        <p>{t("staff.houseSeats.none")}</p>
      ) : (
        <PostForm id={releaseForm.id} onSubmit={releaseForm.onSubmit} key={releaseForm.key}>
          <input type="hidden" name="form" value="release" />
          <input type="hidden" name="performance" value={chosen.id} />
          <div id="release" className={releaseErrors?.release ? "field field--error" : "field"} tabIndex={-1}>
            <table className="ticket-table">
              <caption>{t("staff.houseSeats.tableCaption", { count: house.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("staff.houseSeats.column.release")}</th>
                  <th scope="col">{t("staff.houseSeats.column.seat")}</th>
                  <th scope="col">{t("staff.houseSeats.column.reason")}</th>
                  <th scope="col">{t("staff.houseSeats.column.by")}</th>
                  <th scope="col">{t("staff.houseSeats.column.since")}</th>
                </tr>
              </thead>
              <tbody>
                {house.map((seat) => (
                  <tr key={seat.seatId}>
                    <td>
                      <input
                        type="checkbox"
                        id={`release-${seat.seatId}`}
                        name="release"
                        value={seat.seatId}
                        defaultChecked={releaseTicked.has(seat.seatId)}
                      />
                      <label htmlFor={`release-${seat.seatId}`} className="visually-hidden">
                        {t("staff.houseSeats.releaseSeat", { seat: name(seat) })}
                      </label>
                    </td>
                    <th scope="row">{name(seat)}</th>
                    <td>{seat.reason}</td>
                    <td>{seat.staffName ?? t("staff.houseSeats.byUnknown")}</td>
                    <td>{formatDateTime(seat.heldAt, chosen.timeZone, i18n.language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="form-actions">
            <button type="submit" className="button button--secondary">
              {t("staff.houseSeats.release")}
            </button>
          </div>
        </PostForm>
      )}

      <h2>{t("staff.houseSeats.holdHeading")}</h2>
      <PostForm id={holdForm.id} onSubmit={holdForm.onSubmit} key={holdForm.key}>
        <input type="hidden" name="form" value="hold" />
        <input type="hidden" name="performance" value={chosen.id} />
        <TextField
          field={holdFields.reason}
          label={t("staff.houseSeats.reason")}
          hint={t("staff.houseSeats.reasonHint", { count: HOUSE_REASON_MAX_LENGTH })}
          autoComplete="off"
        />
        <SeatCheckboxes
          choices={choices}
          name="seat"
          legend={t("staff.houseSeats.seats")}
          hint={t("staff.houseSeats.seatsHint")}
          error={seatError ? translateMessage(seatError, t) : undefined}
          selectable={(seat) => seat.state === "free"}
          labelOf={(seat) => t(`staff.houseSeats.seat.${seat.state}`, { seat: seat.seat })}
          checked={new Set(holdAnswer?.ticked ?? [])}
        />
        <div className="form-actions">
          <button type="submit" className="button">
            {t("staff.houseSeats.hold")}
          </button>
        </div>
      </PostForm>
      <StaffHomeLink />
    </>
  );
}
