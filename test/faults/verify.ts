// Reads back what the service stored for the uploads a scenario sent, through the player's own
// routes (export, totals), and compares it with what sending each upload once would give.
import { PROFILE, send, type Account, type Answer, type BatchIdentity, type Sent } from "./load.ts";
import type { Report } from "./report.ts";

type Export = {
  dayRows: { profileId: string; key: string; day: string; installId: string; value: number }[];
  sessions: { id: string }[];
  timelineEvents: { id: string }[];
};

async function exportOf(url: string, account: Account): Promise<Export> {
  const res = await fetch(`${url}/v1/stats/export`, { headers: account.auth });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Export;
}

export type Stored = {
  /** batchIds stored whole: every row with its value, its session and its event. */
  whole: Set<string>;
  absent: Set<string>;
  /** batchIds of which only some parts are stored: must never happen. */
  partial: string[];
  /** Stored rows, sessions or events no sent upload explains (or a cell with another value). */
  unexplained: number;
};

/** An account's stored cells (by profile, key, day and install), session ids and event ids, and how many of all. */
async function storedOf(url: string, account: Account) {
  const doc = await exportOf(url, account);
  return {
    cells: new Map(doc.dayRows.map((r) => [`${r.profileId}|${r.key}|${r.day}|${r.installId}`, r.value])),
    sessions: new Set(doc.sessions.map((s) => s.id)),
    events: new Set(doc.timelineEvents.map((e) => e.id)),
    total: doc.dayRows.length + doc.sessions.length + doc.timelineEvents.length,
  };
}

/** Classifies every sent upload as stored whole, absent, or partly stored. */
export async function storedBatches(
  url: string,
  accounts: Account[],
  sent: { batch: BatchIdentity }[],
): Promise<Stored> {
  const out: Stored = { whole: new Set(), absent: new Set(), partial: [], unexplained: 0 };
  for (const account of accounts) {
    const { cells, sessions, events, total } = await storedOf(url, account);
    let explained = 0;
    for (const { batch } of sent.filter((s) => s.batch.account === account)) {
      const rows = batch.rows.filter(
        (r) => cells.get(`${PROFILE}|${r.key}|${r.day}|${account.install}`) === r.value,
      ).length;
      const parts = rows + (sessions.has(batch.sessionId) ? 1 : 0) + (events.has(batch.eventId) ? 1 : 0);
      explained += parts;
      if (parts === batch.rowCount + 2) out.whole.add(batch.batchId);
      else if (parts === 0) out.absent.add(batch.batchId);
      else
        out.partial.push(
          `${batch.batchId}: ${rows}/${batch.rowCount} rows, session ${sessions.has(batch.sessionId)}, event ${events.has(batch.eventId)}`,
        );
    }
    out.unexplained += total - explained;
  }
  return out;
}

/**
 * The same classes for live uploads (batchOf's `live`), each of which overwrites the cells of the one
 * before on its day: a batch is whole when its session and event are stored and, if it is the last
 * of its account and day to be stored, every cell holds its value; absent when neither is stored.
 */
export async function storedLiveBatches(
  url: string,
  accounts: Account[],
  sent: { batch: BatchIdentity }[],
): Promise<Stored> {
  const out: Stored = { whole: new Set(), absent: new Set(), partial: [], unexplained: 0 };
  for (const account of accounts) {
    const { cells, sessions, events, total } = await storedOf(url, account);
    const mine = sent.filter((s) => s.batch.account === account).map((s) => s.batch);
    const lastOfDay = new Map<string, (typeof mine)[number]>();
    for (const b of mine)
      if (sessions.has(b.sessionId) && (lastOfDay.get(b.day)?.i ?? -1) < b.i) lastOfDay.set(b.day, b);
    let explained = 0;
    for (const b of mine) {
      const parts = (sessions.has(b.sessionId) ? 1 : 0) + (events.has(b.eventId) ? 1 : 0);
      explained += parts;
      const last = lastOfDay.get(b.day) === b;
      const rows = last
        ? b.rows.filter((r) => cells.get(`${PROFILE}|${r.key}|${r.day}|${account.install}`) === r.value).length
        : b.rowCount;
      if (last) explained += rows;
      if (parts === 2 && rows === b.rowCount) out.whole.add(b.batchId);
      else if (parts === 0) out.absent.add(b.batchId);
      else
        out.partial.push(
          `${b.batchId}: ${rows}/${b.rowCount} rows, session ${sessions.has(b.sessionId)}, event ${events.has(b.eventId)}`,
        );
    }
    out.unexplained += total - explained;
  }
  return out;
}

/** The lifetime totals the player sees, against the sums of the uploads given; answers the keys that differ. */
export async function totalsDiffer(url: string, accounts: Account[], batches: Sent[]): Promise<string[]> {
  const differ: string[] = [];
  for (const account of accounts) {
    const expected = new Map<string, number>();
    for (const { batch } of batches.filter((s) => s.batch.account === account)) {
      for (const r of batch.rows) expected.set(r.key, (expected.get(r.key) ?? 0) + r.value);
    }
    const res = await fetch(`${url}/v1/stats/totals?profile=${PROFILE}`, { headers: account.auth });
    if (res.status !== 200) return [`totals answered ${res.status}`];
    const doc = (await res.json()) as { profile: { keys: { key: string; lifetime: { value: number } }[] } };
    const seen = new Map(
      doc.profile.keys.filter((k) => k.key.startsWith("mining.fault.r")).map((k) => [k.key, k.lifetime.value]),
    );
    for (const key of new Set([...expected.keys(), ...seen.keys()])) {
      if (expected.get(key) !== seen.get(key))
        differ.push(`${account.index}/${key}: expected ${expected.get(key)}, shown ${seen.get(key)}`);
    }
  }
  return differ;
}

const withoutFlag = (a: Answer | undefined) => JSON.stringify({ ...a, duplicate: undefined });

/**
 * Sends every upload again with its batchId, as a client with an outbox does after a restart.
 * One stored before must answer duplicate with the very answer first given; one absent must apply
 * whole. Answers how many of each it saw.
 */
export async function resendAll(
  url: string,
  accounts: Account[],
  sent: Sent[],
  before: Stored,
  report: Report,
  label: string,
) {
  let duplicates = 0;
  let applied = 0;
  const wrong: string[] = [];
  await Promise.all(
    accounts.map(async (account) => {
      for (const s of sent.filter((x) => x.batch.account === account)) {
        const reply = await send(url, s.batch);
        const id = s.batch.batchId;
        if (reply.status !== 200) {
          wrong.push(`${id}: ${reply.status} ${reply.code ?? reply.error ?? ""}`);
          continue;
        }
        const a = reply.answer!;
        if (a.duplicate) duplicates++;
        else applied++;
        if (before.whole.has(id) && !a.duplicate) wrong.push(`${id}: stored before, but applied again`);
        if (before.absent.has(id) && (a.duplicate || a.applied.rows !== s.batch.rowCount))
          wrong.push(`${id}: absent before, answered ${JSON.stringify(a)}`);
        if (s.acked && withoutFlag(a) !== withoutFlag(s.answer))
          wrong.push(`${id}: the stored answer differs from the one acknowledged`);
      }
    }),
  );
  report.check(
    `${label}: every upload sent again answers duplicate if it was stored (with the answer first given), else applies whole`,
    wrong.length === 0,
    wrong.slice(0, 3).join("; "),
  );
  return { duplicates, applied };
}

/**
 * The three checks every load scenario ends with: each acknowledged upload stored whole, none in part
 * and nothing unexplained, lifetime totals as if each upload had been sent once. Answers what was
 * stored and what was lost, for the scenario's figures.
 */
export async function checkStoredOnce(report: Report, label: string, url: string, accounts: Account[], sent: Sent[]) {
  const acked = sent.filter((s) => s.acked);
  const stored = await storedBatches(url, accounts, sent);
  const lost = acked.filter((s) => !stored.whole.has(s.batch.batchId));
  report.check(
    `${label}: every acknowledged upload is stored whole`,
    lost.length === 0,
    `${lost.length} lost of ${acked.length}`,
  );
  report.check(
    `${label}: no upload is stored in part, nothing unexplained`,
    stored.partial.length === 0 && stored.unexplained === 0,
    `${stored.partial.length} partial, ${stored.unexplained} unexplained`,
  );
  const differ = await totalsDiffer(url, accounts, sent);
  report.check(
    `${label}: lifetime totals are those of sending each upload once`,
    differ.length === 0,
    differ.slice(0, 3).join("; "),
  );
  return { stored, lost };
}
