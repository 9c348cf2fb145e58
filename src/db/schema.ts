// Every table of the service, for drizzle-kit (migrations) and the typed client.
export * from "./service.table.ts";
