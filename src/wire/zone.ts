// Time zones are IANA ids (contract 2.1 rule 4); the runtime's zone database decides which exist.
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

export function isKnownZone(zone: string): boolean {
  if (!ZONE_SHAPE.test(zone)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Contract 2.1 rule 4 and 8: the zone can change at most once every 30 days. */
export const ZONE_CHANGE_INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;
