// The maintainers' page in a real browser (test/reports/admin-page.suite.ts), when chromium is
// installed. Without it the suite is one skipped test saying so; with CI=true a missing chromium fails.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./admin-page.suite.ts"));
