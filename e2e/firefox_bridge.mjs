// A browser for the Python e2e tests, driven by npm puppeteer-core over WebDriver BiDi
// (Debian's firefox-esr has no geckodriver; e2e/engines.py starts this file).
//
// Protocol: one JSON object per line on stdin, {"id", "op", "args"}; one answer per
// line on stdout, {"id", "ok": true, "value"} or {"id", "ok": false, "error"}.
// ops: launch {browser, executablePath, userDataDir, prefs}, goto {url}, reload {},
// evaluate {script} (an async function body; its return value, JSON), click {selector}
// (a trusted click, as a player's), press {key}, viewport {width, height, touch},
// screenshot {path}, addInitScript {script} (statements run in every new document of
// the page before its own scripts: puppeteer's evaluateOnNewDocument, a BiDi preload
// script in Firefox; from the next navigation on), close {}.
//
// Firefox versions: puppeteer's page.setViewport sends BiDi browsingContext.setViewport
// together with emulation.setScreenOrientationOverride, which Firefox ESR 140 does not
// have ("unknown command"); there the viewport is set by browsingContext.setViewport
// alone (and checked), newer Firefox (153 seen) takes puppeteer's own call.
import { createInterface } from "node:readline";
import puppeteer, { ProtocolError } from "puppeteer-core";

let browser = null;
let page = null;
// set once this Firefox has answered that it lacks the screen orientation override
let noOrientationOverride = false;

/** Whether `err` is the browser saying it lacks the BiDi command `command`. */
function lacks(err, command) {
  const message = String(err?.message ?? "");
  return (
    err instanceof ProtocolError &&
    message.includes(command) &&
    (message.includes("unknown command") || message.includes("unsupported operation"))
  );
}

/** The viewport through browsingContext.setViewport only (Firefox without
 * emulation.setScreenOrientationOverride), checked in the page. */
async function viewportAlone(width, height, touch) {
  if (touch) {
    throw new Error(
      "touch emulation in a Firefox without emulation.setScreenOrientationOverride " +
        `(${await browser.version()}) is not supported by this bridge`,
    );
  }
  await page.mainFrame().browsingContext.setViewport({
    viewport: { width, height },
    devicePixelRatio: null,
  });
  const inner = await page.evaluate("[innerWidth, innerHeight]");
  if (inner[0] !== width || inner[1] !== height) {
    throw new Error(`viewport ${width}x${height} asked, the page has ${inner[0]}x${inner[1]}`);
  }
}

const ops = {
  async launch({ browser: kind, executablePath, userDataDir, prefs }) {
    browser = await puppeteer.launch({
      browser: kind,
      executablePath,
      userDataDir,
      headless: true,
      extraPrefsFirefox: prefs ?? {},
      protocolTimeout: 120_000,
    });
    page = (await browser.pages())[0] ?? (await browser.newPage());
    return browser.version ? await browser.version() : "";
  },
  async goto({ url }) {
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 120_000 });
  },
  async reload() {
    await page.reload({ waitUntil: "domcontentloaded", timeout: 120_000 });
  },
  async evaluate({ script }) {
    // The body runs as an async function in the page: `return await ...` works.
    // eslint-disable-next-line no-new-func
    return await page.evaluate(`(async () => { ${script} })()`);
  },
  async click({ selector }) {
    await page.locator(selector).setTimeout(30_000).click();
  },
  async press({ key }) {
    await page.keyboard.press(key);
  },
  async viewport({ width, height, touch }) {
    if (noOrientationOverride) return await viewportAlone(width, height, touch);
    try {
      await page.setViewport({ width, height, hasTouch: Boolean(touch), isMobile: false });
    } catch (err) {
      if (!lacks(err, "emulation.setScreenOrientationOverride")) throw err;
      noOrientationOverride = true;
      await viewportAlone(width, height, touch);
    }
  },
  async screenshot({ path }) {
    await page.screenshot({ path });
  },
  async addInitScript({ script }) {
    const { identifier } = await page.evaluateOnNewDocument(script);
    return identifier;
  },
  async close() {
    await browser?.close();
    browser = null;
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const { id, op, args } = JSON.parse(line);
  let answer;
  try {
    const value = await ops[op](args ?? {});
    answer = { id, ok: true, value: value ?? null };
  } catch (err) {
    answer = { id, ok: false, error: String(err?.stack || err) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  if (op === "close") break;
}
process.exit(0);
