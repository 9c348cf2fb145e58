// A statistics page's periods, calendar, charts and rates in a real browser (test/web/periods.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./periods.browser.suite.ts"));
