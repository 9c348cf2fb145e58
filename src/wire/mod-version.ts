// The grammar of a mod version string as bug reports take it (letters, digits and . + _ -, at most
// 64). An upload's `client.modVersion` is free text (contract 2.4); only one of this grammar is
// kept as the version the account runs (a report could not name any other).
export const MOD_VERSION_PATTERN = "^[0-9A-Za-z][0-9A-Za-z.+_-]*$";
export const MOD_VERSION_MAX_LENGTH = 64;

const grammar = new RegExp(MOD_VERSION_PATTERN);

export const isModVersion = (v: string) => v.length <= MOD_VERSION_MAX_LENGTH && grammar.test(v);
