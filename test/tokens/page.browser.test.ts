// The owner's tokens in a real browser (test/tokens/page.browser.suite.ts), when chromium is installed.
import { browserSuite } from "../support/browser.ts";

await browserSuite(() => import("./page.browser.suite.ts"));
