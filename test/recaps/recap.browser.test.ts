// Recap pages in a real browser (recap.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./recap.browser.suite.ts"));
