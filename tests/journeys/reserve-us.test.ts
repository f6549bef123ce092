import { reserveJourneys } from "./reserve.journeys";

// From a performance's seats to held tickets without script, in en-US
// (tests/journeys/reserve.journeys.ts).
reserveJourneys("en-US");
