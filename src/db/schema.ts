// Every table of the service, for drizzle-kit (migrations) and the typed client.
export * from "./service.table.ts";
export * from "../accounts/accounts.table.ts";
export * from "../auth/auth.table.ts";
export * from "../http/rate-limit.table.ts";
export * from "../stats/counters.table.ts";
export * from "../stats/activity.table.ts";
export * from "../stats/calendar.table.ts";
export * from "../upstream/backoff.table.ts";
export * from "../profiles/profiles.table.ts";
export * from "../assets/assets.table.ts";
export * from "../items/items.table.ts";
export * from "../reports/reports.table.ts";
export * from "../reports/release-health.table.ts";
export * from "../tokens/tokens.table.ts";
export * from "../recaps/recaps.table.ts";
export * from "../boards/boards.table.ts";
export * from "../boards/groups.table.ts";
