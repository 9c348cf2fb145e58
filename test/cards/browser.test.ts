// The cards and badges in a real browser (test/cards/browser.suite.ts), when chromium is installed.
// Without it the suite is one skipped test saying so; with CI=true a missing chromium is a failure.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./browser.suite.ts"));
