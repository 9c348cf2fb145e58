// What the mod's status screen shows, the link to the player's own page, and the share link.
import type { Db } from "../db/database.ts";
import type { Clock } from "../clock.ts";
import type { Catalogue } from "../catalogue/catalogue.ts";
import { randomBase64url } from "../http/secret.ts";
import { setShareKey, type Account } from "./accounts.query.ts";
import { mintPageToken, requireAccount } from "./accounts.ts";

export type MeDeps = {
  db: Db;
  clock: Clock;
  catalogue: Catalogue;
  config: { baseUrl: string; pageTokenTtlMs: number };
};

/** A share key for /s/<key>: 32 base64url characters. */
const newShareKey = () => randomBase64url(24);

const shareUrl = (deps: MeDeps, a: Account) => (a.shareKey ? `${deps.config.baseUrl}/s/${a.shareKey}` : null);

export async function status(deps: MeDeps, uuid: string) {
  const a = await requireAccount(deps.db, uuid);
  const consented = deps.catalogue.categories.filter((c) => a.consented.includes(c));
  const warnings: { code: string; message: string }[] = [];
  if (consented.length === 0)
    warnings.push({ code: "nothing_consented", message: "statistics are off: no category is turned on" });
  return {
    uuid: a.uuid,
    name: a.name,
    zone: a.zone,
    consented,
    settingsVersion: a.settingsVersion,
    catalogueVersion: deps.catalogue.version,
    lastUploadAt: a.lastUploadAt,
    pageUrl: a.findable ? `${deps.config.baseUrl}/u/${a.name}` : null,
    shareUrl: shareUrl(deps, a),
    warnings,
  };
}

/** A short-lived, single-use link that opens the player's own page, findable or not (the mod builds no URLs). */
export async function pageToken(deps: MeDeps, who: { uuid: string; sessionId: string }) {
  const a = await requireAccount(deps.db, who.uuid);
  const { token, expiresAt } = await mintPageToken(
    deps.db,
    { ...who, kind: "link" },
    deps.clock.now(),
    deps.config.pageTokenTtlMs,
  );
  return { url: `${deps.config.baseUrl}/u/${a.name}?t=${token}`, expiresAt };
}

/** A new share key; the previous one stops working at once. */
export async function rotateShare(deps: MeDeps, uuid: string) {
  const a = await setShareKey(deps.db, uuid, newShareKey(), deps.clock.now());
  return { shareUrl: shareUrl(deps, a), createdAt: a.shareKeyCreatedAt };
}

export async function stopSharing(deps: MeDeps, uuid: string) {
  await setShareKey(deps.db, uuid, null, deps.clock.now());
  return { shareUrl: null, createdAt: null };
}
