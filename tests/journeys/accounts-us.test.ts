import { accountJourneys } from "./accounts.journeys";

// Accounts, membership, presale, access booking and sponsored seats without script, on a en-US
// deployment (tests/journeys/accounts.journeys.ts).
accountJourneys("en-US");
