// The forms of the service's own pages (the owner's headline and tokens, the maintainers' page) are
// taken only from this service's origin. A post that says `Origin: null` (a page under
// Referrer-Policy: no-referrer, or a sandboxed frame) is taken only when Sec-Fetch-Site says it came
// from this origin (or the browser sends no Sec-Fetch-Site): a sibling host of the same site
// (`same-site`) is another origin, and the owner's SameSite cookie would go along with its post.
import { expect, test } from "bun:test";
import { sameOrigin } from "../../src/http/same-origin.ts";

const BASE = "https://tally.example.org";
const post = (headers: Record<string, string>) =>
  new Request(`${BASE}/u/Someone/headline`, { method: "POST", headers });

test("Origin: null is taken from this origin only, never from a sibling host of the same site", () => {
  expect(sameOrigin(post({ origin: "null", "sec-fetch-site": "same-origin" }), BASE)).toBe(true);
  expect(sameOrigin(post({ origin: "null" }), BASE)).toBe(true);
  expect(sameOrigin(post({ origin: "null", "sec-fetch-site": "same-site" }), BASE)).toBe(false);
  expect(sameOrigin(post({ origin: "null", "sec-fetch-site": "cross-site" }), BASE)).toBe(false);
  expect(sameOrigin(post({ "sec-fetch-site": "same-site" }), BASE)).toBe(false);
  expect(sameOrigin(post({ origin: "https://other.example.org" }), BASE)).toBe(false);
  expect(sameOrigin(post({ origin: BASE }), BASE)).toBe(true);
});
