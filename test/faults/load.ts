// The upload load of the fault tests, and what it expects to find stored afterwards.
// Every upload is identifiable: upload i of an account writes ROWS counter rows on its own
// (key, day) cells, with values that encode i, plus one session and one timeline event whose ids
// are made from its batchId. So the stored state says, batch by batch, whether it is there whole,
// not at all, or (the failure this looks for) in part.

export const PROFILE = "4f1c2a3b4d5e6f708192a3b4c5d6e7f8";
export const ROWS = 40;
const hex = (n: number, width = 32) => n.toString(16).padStart(width, "0");

export type Account = { index: number; uuid: string; install: string; auth: { authorization: string } };

export type Batch = {
  account: Account;
  i: number;
  batchId: string;
  /** The gzip body, sent byte for byte the same on every attempt (a soak drops it once answered). */
  body: Uint8Array<ArrayBuffer>;
  /** The day every row, the session and the event are on. */
  day: string;
  /** How many counter rows it carries. */
  rowCount: number;
  /** Rebuilt from (i, day) on each read, so a long soak keeps a few numbers per upload, not 600 rows. */
  readonly rows: { key: string; day: string; value: number }[];
  sessionId: string;
  eventId: string;
};

export type Answer = {
  duplicate: boolean;
  applied: { rows: number; sessions: number; events: number };
  [k: string]: unknown;
};

/** What the client knows about one upload: acknowledged means it got a 200 for it. */
export type Sent = { batch: Batch; acked: boolean; answer?: Answer; attempts: number; unavailable: number };

const dayPlus = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The days uploads write to: 100 days ending the day before yesterday (UTC), well inside the 120-day horizon. */
export const firstDay = () => dayPlus(new Date().toISOString().slice(0, 10), -102);

export async function signIn(url: string, scenario: number, index: number): Promise<Account> {
  const uuid = hex(0xfa000000 + scenario * 0x10000 + index);
  const res = await fetch(`${url}/v1/auth/dev`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uuid, name: `Fault${scenario}_${index}`, zone: "UTC" }),
  });
  if (res.status !== 200) throw new Error(`dev sign-in answered ${res.status}: ${await res.text()}`);
  const auth = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
  const settings = await fetch(`${url}/v1/stats/settings`, {
    method: "PATCH",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ settingsVersion: 1, categories: { gathering: true } }),
  });
  if (settings.status !== 200) throw new Error(`settings answered ${settings.status}: ${await settings.text()}`);
  return { index, uuid, install: hex(0xc0ffee00 + scenario * 0x100 + index), auth };
}

/** What identifies upload i of an account, without its body: see batchOf. */
export type BatchIdentity = Omit<Batch, "body">;

/**
 * Upload i of an account as batchOf makes it, without the body: rebuilt from a few numbers, so a
 * long soak keeps those per upload instead of the object. `tag`: the 16 hex digits that end the
 * batchId (random when not given); `day`: the day a live upload was sent on (today when not given).
 */
export function batchIdentity(
  scenario: number,
  account: Account,
  i: number,
  from: string,
  rowCount = ROWS,
  live = false,
  tag?: string,
  liveDay?: string,
): BatchIdentity {
  const batchId =
    hex(scenario, 4) +
    hex(account.index, 4) +
    hex(i, 8) +
    (tag ?? crypto.randomUUID().replaceAll("-", "").slice(0, 16));
  const day = live ? (liveDay ?? new Date().toISOString().slice(0, 10)) : dayPlus(from, i % 100);
  return {
    account,
    i,
    batchId,
    day,
    rowCount,
    get rows() {
      return Array.from({ length: rowCount }, (_, j) => ({
        key: live ? `mining.fault.k${j}` : `mining.fault.r${Math.floor(i / 100)}.k${j}`,
        day,
        value: i * 1000 + j + 1,
      }));
    },
    sessionId: `s-${batchId}`,
    eventId: `e-${batchId}`,
  };
}

/**
 * Upload i of an account: `rows` cells (mining.fault.r<i/100>.k<j>, day i mod 100), value i*1000+j+1.
 * `live`: the mod's usual upload instead, today's (UTC) values of one key set (mining.fault.k<j>),
 * value i*1000+j+1, so each upload overwrites the one before; only the last one's cells stay.
 */
export function batchOf(...args: Parameters<typeof batchIdentity>): Batch {
  const id = batchIdentity(...args);
  const { account, i, batchId, day, sessionId, eventId } = id;
  const at = Date.parse(`${day}T12:00:00Z`) + i;
  const envelope = {
    schema: 1,
    batchId,
    sentAt: Date.now(),
    mode: "live",
    client: { install: account.install, modVersion: "faults", minecraft: "1.21.4", catalogue: 1 },
    zone: { id: "UTC" },
    settingsVersion: 2,
    profile: { id: PROFILE, cuteName: "Kiwi" },
    categories: ["gathering"],
    counters: [
      { profileId: PROFILE, scope: "day", day, rows: id.rows.map((r) => ({ k: r.key, v: r.value, m: "count" })) },
    ],
    sessions: [
      {
        id: sessionId,
        activity: "mining",
        day,
        startedAt: at,
        endedAt: at + 60_000,
        gains: [{ k: "mining.fault.gain", v: i + 1 }],
        costs: [],
      },
    ],
    timeline: [{ id: eventId, kind: "fault_probe", day, at, value: i }],
  };
  return Object.defineProperties(
    { body: Bun.gzipSync(JSON.stringify(envelope)) } as Batch,
    Object.getOwnPropertyDescriptors(id),
  );
}

export type Reply = { status: number; code?: string; retryAfter?: string | null; answer?: Answer; error?: string };

/** One attempt at an upload; a connection that fails or a timeout comes back as status 0. */
export async function send(url: string, batch: Batch, timeoutMs?: number): Promise<Reply> {
  try {
    const res = await fetch(`${url}/v1/stats/ingest`, {
      method: "POST",
      headers: { ...batch.account.auth, "content-type": "application/json", "content-encoding": "gzip" },
      body: batch.body,
      signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
    });
    const body = (await res.json()) as Answer & { error?: { code: string } };
    if (res.status === 200) return { status: 200, answer: body };
    return { status: res.status, code: body.error?.code, retryAfter: res.headers.get("retry-after") };
  } catch (e) {
    return { status: 0, error: (e as Error).name === "TimeoutError" ? "timeout" : String((e as Error).message ?? e) };
  }
}

export type LoadOptions = {
  url: string;
  scenario: number;
  accounts: Account[];
  from: string;
  /** Checked before each new upload: false ends that account's loop. */
  more: () => boolean;
  /** On 503 the client keeps the upload and tries it again after this pause (the mod's outbox); undefined: give up on it. */
  retryUnavailableAfterMs?: number;
  /** Once `more()` is false, retries of a kept upload stop after this long (a service that never recovers ends the load). */
  retryForMsAfterStop?: number;
  /** `at`: when the answer came (performance.now()); `ms`: how long the request took. */
  onReply?: (reply: Reply, at: number, ms: number) => void;
  /**
   * Each account starts a new upload at most once every this many ms (a paced client: how much the
   * load writes does not grow with the service's speed); undefined: one right after another.
   */
  everyMs?: number;
};

/**
 * Each account uploads one envelope after another (the way one client does) until `more()` says
 * stop or the service stops answering at all. Returns every upload tried, acknowledged or not.
 */
export async function runLoad(o: LoadOptions): Promise<Sent[]> {
  const sent: Sent[] = [];
  let stoppedAt: number | undefined;
  const retryMore = () => {
    if (o.more()) return true;
    stoppedAt ??= performance.now();
    return performance.now() - stoppedAt < (o.retryForMsAfterStop ?? 30_000);
  };
  await Promise.all(
    o.accounts.map(async (account) => {
      const start = performance.now();
      for (let i = 0; o.more(); i++) {
        const early = o.everyMs === undefined ? 0 : start + i * o.everyMs - performance.now();
        if (early > 0) await Bun.sleep(early);
        if (!o.more()) break;
        const entry: Sent = {
          batch: batchOf(o.scenario, account, i, o.from),
          acked: false,
          attempts: 0,
          unavailable: 0,
        };
        sent.push(entry);
        for (;;) {
          entry.attempts++;
          const t0 = performance.now();
          const reply = await send(o.url, entry.batch);
          o.onReply?.(reply, performance.now(), performance.now() - t0);
          if (reply.status === 200) {
            entry.acked = true;
            entry.answer = reply.answer;
            break;
          }
          const retryable = reply.code === "database_unavailable" || reply.code === "storage_full";
          if (reply.status === 503 && retryable && o.retryUnavailableAfterMs !== undefined && retryMore()) {
            entry.unavailable++;
            await Bun.sleep(o.retryUnavailableAfterMs);
            continue;
          }
          if (reply.status === 0) return; // the service is gone: this client stops
          break; // any other answer: not acknowledged; the checks report it
        }
      }
    }),
  );
  return sent;
}
