// Contract 9.1: every body carries `schema`; the service accepts the current one and the one
// before it. Schema 1 is the first, so there is no earlier one to accept yet.
export const CURRENT_SCHEMA = 1;
export const ACCEPTED_SCHEMAS: readonly number[] = [CURRENT_SCHEMA];
