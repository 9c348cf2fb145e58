// The settings document and the rules of changing it: a stale settingsVersion is a conflict; only
// the catalogue's categories exist; the zone is an IANA id and changes at most once in 30 days;
// retention is one of the configured periods; headline keys are keys the catalogue or the account
// knows, each once. A change that changes nothing keeps the version.
import type { Static } from "@sinclair/typebox";
import type { Db } from "../db/database.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { ApiError } from "../http/errors.ts";
import { updateSettings, type Account, type SettingsChange } from "./accounts.query.ts";
import { requireAccount } from "./accounts.ts";
import type { SettingsChangeBody, SettingsDocument } from "./settings.schema.ts";
import { isKnownZone, ZONE_CHANGE_INTERVAL_MS } from "../wire/zone.ts";

export type SettingsDeps = {
  db: Db;
  catalogue: Catalogue;
  clock: { now(): number };
  config: { retentionOptionsDays: readonly number[] };
  /**
   * Which of these keys the account has recorded (in any profile or its own scope): stats' read,
   * handed in by createApp (accounts sits below stats). Absent: only the catalogue's keys are known.
   */
  heldKeys?: (uuid: string, keys: string[]) => Promise<ReadonlySet<string>>;
};

export function settingsDocument(
  account: Account,
  deps: Pick<SettingsDeps, "catalogue" | "config">,
): Static<typeof SettingsDocument> {
  return {
    settingsVersion: account.settingsVersion,
    categories: Object.fromEntries(deps.catalogue.categories.map((c) => [c, account.consented.includes(c)])),
    zone: account.zone,
    zoneChangeableAt:
      account.zoneChangedAt === null ? account.createdAt : account.zoneChangedAt + ZONE_CHANGE_INTERVAL_MS,
    retentionDays: account.retentionDays,
    retentionOptionsDays: [...deps.config.retentionOptionsDays],
    findable: account.findable,
    headlineKeys: [...account.headlineKeys],
  };
}

/** The chosen headline keys, checked: each once, each known to the catalogue or recorded by the account. */
async function checkedHeadlineKeys(keys: string[], uuid: string, deps: SettingsDeps): Promise<string[]> {
  keys.forEach((key, i) => {
    if (keys.indexOf(key) !== i)
      throw new ApiError("invalid_body", `${JSON.stringify(key)} is chosen twice`, `/headlineKeys/${i}`);
  });
  const unlisted = keys.filter((k) => !deps.catalogue.lookup(k));
  const held = unlisted.length > 0 && deps.heldKeys ? await deps.heldKeys(uuid, unlisted) : new Set<string>();
  const i = keys.findIndex((k) => unlisted.includes(k) && !held.has(k));
  if (i >= 0) {
    throw new ApiError(
      "unknown_headline_key",
      `${JSON.stringify(keys[i])} is neither a key of catalogue ${deps.catalogue.version} nor one this account has recorded`,
      `/headlineKeys/${i}`,
    );
  }
  return keys;
}

/** What the body asks to change, checked against the rules; empty when nothing differs. */
async function changeFrom(
  body: Static<typeof SettingsChangeBody>,
  account: Account,
  deps: SettingsDeps,
): Promise<SettingsChange> {
  const change: SettingsChange = {};
  if (body.categories) {
    for (const name of Object.keys(body.categories)) {
      if (!deps.catalogue.categories.includes(name)) {
        throw new ApiError(
          "unknown_category",
          `${JSON.stringify(name)} is not a category of catalogue ${deps.catalogue.version}`,
          `/categories/${name}`,
        );
      }
    }
    const on = new Set(account.consented.filter((c) => deps.catalogue.categories.includes(c)));
    for (const [name, value] of Object.entries(body.categories)) value ? on.add(name) : on.delete(name);
    const consented = deps.catalogue.categories.filter((c) => on.has(c));
    if (consented.join() !== account.consented.join()) change.consented = consented;
  }
  if (body.zone !== undefined && body.zone !== account.zone) {
    if (!isKnownZone(body.zone))
      throw new ApiError("unknown_zone", `${JSON.stringify(body.zone)} is not a known IANA time zone`, "/zone");
    const now = deps.clock.now();
    const from = account.zoneChangedAt === null ? 0 : account.zoneChangedAt + ZONE_CHANGE_INTERVAL_MS;
    if (now < from) {
      throw new ApiError(
        "zone_change_too_soon",
        `the time zone can change once every 30 days; next possible at ${new Date(from).toISOString()}`,
        "/zone",
      );
    }
    change.zone = body.zone;
    change.zoneChangedAt = now;
  }
  if (body.retentionDays !== undefined && body.retentionDays !== account.retentionDays) {
    if (!deps.config.retentionOptionsDays.includes(body.retentionDays)) {
      throw new ApiError(
        "invalid_retention",
        `retention must be one of ${deps.config.retentionOptionsDays.join(", ")} days`,
        "/retentionDays",
      );
    }
    change.retentionDays = body.retentionDays;
  }
  if (body.findable !== undefined && body.findable !== account.findable) change.findable = body.findable;
  if (body.headlineKeys !== undefined && body.headlineKeys.join() !== account.headlineKeys.join())
    change.headlineKeys = await checkedHeadlineKeys(body.headlineKeys, account.uuid, deps);
  return change;
}

class StaleSettingsError extends ApiError {
  constructor(readonly current: Static<typeof SettingsDocument>) {
    super(
      "conflict",
      `settingsVersion is stale: the current version is ${current.settingsVersion}`,
      "/settingsVersion",
      {},
      { settings: current },
    );
  }
}

export async function changeSettings(deps: SettingsDeps, uuid: string, body: Static<typeof SettingsChangeBody>) {
  const account = await requireAccount(deps.db, uuid);
  if (body.settingsVersion !== account.settingsVersion) throw new StaleSettingsError(settingsDocument(account, deps));
  const change = await changeFrom(body, account, deps);
  if (Object.keys(change).length === 0) return settingsDocument(account, deps);
  const updated = await updateSettings(deps.db, uuid, body.settingsVersion, change);
  // Another writer moved the version between our read and write.
  if (!updated) throw new StaleSettingsError(settingsDocument(await requireAccount(deps.db, uuid), deps));
  return settingsDocument(updated, deps);
}
