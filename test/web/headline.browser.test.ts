// The chosen headline and the public figures in a real browser (test/web/headline.browser.suite.ts),
// when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./headline.browser.suite.ts"));
