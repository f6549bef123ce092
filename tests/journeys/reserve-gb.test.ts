import { reserveJourneys } from "./reserve.journeys";

// From a performance's seats to held tickets without script, in en-GB
// (tests/journeys/reserve.journeys.ts).
reserveJourneys("en-GB");
