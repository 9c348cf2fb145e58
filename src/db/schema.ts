// Every table of the service, for drizzle-kit (migrations) and the typed client.
export * from "./service.table.ts";
export * from "../accounts/accounts.table.ts";
export * from "../auth/auth.table.ts";
export * from "../http/rate-limit.table.ts";
export * from "../reports/reports.table.ts";
