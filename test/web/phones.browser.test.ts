// Phones (test/web/phones.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./phones.browser.suite.ts"));
