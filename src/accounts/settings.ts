// The settings document and the rules of changing it: a stale settingsVersion is a conflict; only
// the catalogue's categories exist; the zone is an IANA id and changes at most once in 30 days;
// retention is one of the configured periods. A change that changes nothing keeps the version.
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
  };
}

/** What the body asks to change, checked against the rules; empty when nothing differs. */
function changeFrom(body: Static<typeof SettingsChangeBody>, account: Account, deps: SettingsDeps): SettingsChange {
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
  const change = changeFrom(body, account, deps);
  if (Object.keys(change).length === 0) return settingsDocument(account, deps);
  const updated = await updateSettings(deps.db, uuid, body.settingsVersion, change);
  // Another writer moved the version between our read and write.
  if (!updated) throw new StaleSettingsError(settingsDocument(await requireAccount(deps.db, uuid), deps));
  return settingsDocument(updated, deps);
}
