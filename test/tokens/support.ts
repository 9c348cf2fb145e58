// Making personal access tokens in tests, through the API as a player would.
import type { TestApp } from "../support/app.ts";

export type Made = {
  id: string;
  token: string;
  scopes: string[];
  expiresAt: number | null;
  auth: { authorization: string };
};

export async function makeToken(
  t: TestApp,
  auth: { authorization: string },
  body: { label?: string; scopes: string[]; expiresInDays?: number },
): Promise<Made> {
  const res = await t.postJson("/v1/stats/tokens", { label: "Discord bot", ...body }, { headers: auth });
  if (res.status !== 200) throw new Error(`token refused: ${res.status} ${await res.text()}`);
  const made = (await res.json()) as Omit<Made, "auth">;
  return { ...made, auth: { authorization: `Bearer ${made.token}` } };
}

export const codeOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
