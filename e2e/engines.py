"""One small driver interface over the three browser engines the page must play in.

Chromium runs through Playwright (as in the rest of e2e/), Firefox ESR through npm
``puppeteer-core`` over WebDriver BiDi (``e2e/firefox_bridge.mjs``; Debian has
no geckodriver), WebKitGTK through Python ``selenium``'s ``WebKitGTK`` driver with the
MiniBrowser under a private Xvfb display (``../shared/BROWSER-STACK.md``). The checks in
``test_every_engine.py`` are written once against :class:`Driver`.

Clicks are the engine's own trusted input (a clipboard write needs a player's click),
``run`` evaluates an async function body in the page and returns its JSON value.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parent.parent
BRIDGE = Path(__file__).resolve().parent / "firefox_bridge.mjs"
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
ENGINES = ("chromium", "firefox", "webkit")

# The MiniBrowser's toolbar keeps its window at least 447 px wide; with these widgets
# shrunk it can be as narrow as a phone (390 px).
_NARROW_GTK_CSS = """
* { min-width: 0; min-height: 0; padding: 0; margin: 0; }
entry { min-width: 0; }
toolbar, headerbar, box { min-width: 0; }
button { min-width: 0; min-height: 0; }
"""


class Driver(Protocol):
    engine: str

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def run(self, script: str) -> Any: ...
    def click(self, selector: str) -> None: ...
    def press(self, key: str) -> None: ...
    def viewport(self, width: int, height: int) -> None: ...
    def screenshot(self, path: str) -> None: ...
    def close(self) -> None: ...


def wait_for(driver: Driver, predicate: str, timeout: float = 60.0, what: str = "") -> Any:
    """Poll the JS expression ``predicate`` until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        # an element is not serialisable in every driver: it counts as true
        value = driver.run(f"const v = ({predicate}); return v instanceof Node ? true : v;")
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{driver.engine}: not within {timeout:.0f} s: {what or predicate}"
                               f"; the page: {_page_state(driver)}")
        time.sleep(0.1)


# What a timed-out wait reports of the page: where it is, how far its start got, and
# the start's error and steps as the player sees them.
_PAGE_STATE = """
const shown = (id) => { const e = document.getElementById(id); return e && !e.hidden; };
return JSON.stringify({
  url: location.href,
  ready: document.body && document.body.dataset.ready,
  html: {...document.documentElement.dataset},
  loading: shown('loading'),
  error: shown('loading-error') ? document.getElementById('loading-error').textContent : null,
  retry: shown('loading-retry'),
  steps: [...document.querySelectorAll('.loading-steps li')].map((li) => li.className),
  controller: navigator.serviceWorker && navigator.serviceWorker.controller
    ? navigator.serviceWorker.controller.state : null,
});
"""


def _page_state(driver: Driver) -> str:
    try:
        return str(driver.run(_PAGE_STATE))
    except Exception as err:  # the page may be gone or hung: say so, keep the timeout
        return f"unreadable ({type(err).__name__}: {err})"


def available(engine: str) -> str | None:
    """Why ``engine`` cannot run here, or None."""
    if engine == "firefox":
        if not Path(FIREFOX).exists():
            return f"{FIREFOX} is not installed"
        if not (ROOT / "node_modules" / "puppeteer-core").exists():
            return "npm puppeteer-core is not installed (npm ci)"
    if engine == "webkit":
        for path in (WEBKIT_DRIVER, MINIBROWSER, shutil.which("Xvfb") or "/usr/bin/Xvfb"):
            if not Path(path).exists():
                return f"{path} is not installed"
        try:
            import selenium  # noqa: F401
        except ImportError:
            return "Python selenium is not installed"
    return None


# --- Chromium (Playwright) ---------------------------------------------------------
class PlaywrightDriver:
    """Chromium through a Playwright page (a context of the session's browser)."""

    engine = "chromium"

    def __init__(self, browser: Any, shared_memory: bool = True, profile: str = "") -> None:
        """``browser`` is a Browser, or with ``profile`` (a folder) Playwright's
        ``chromium`` BrowserType: a persistent profile, with the disk caches a player's
        browser has (the compiled wasm among them), as the benchmark wants."""
        if profile:
            from chromium import CHROMIUM, CHROMIUM_ARGS  # scripts/chromium.py

            self._context = browser.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                viewport={"width": 1280, "height": 800})
        else:
            self._context = browser.new_context(viewport={"width": 1280, "height": 800})
        if not shared_memory:  # as an engine without it: Python on the main thread
            self._context.add_init_script("delete self.SharedArrayBuffer;")
        self._context.grant_permissions(["clipboard-read", "clipboard-write"])
        self._page = self._context.new_page()

    def goto(self, url: str) -> None:
        self._page.goto(url, wait_until="domcontentloaded")

    def reload(self) -> None:
        self._page.reload(wait_until="domcontentloaded")

    def run(self, script: str) -> Any:
        return self._page.evaluate(f"(async () => {{ {script} }})()")

    def click(self, selector: str) -> None:
        self._page.click(selector)

    def press(self, key: str) -> None:
        self._page.keyboard.press(key)

    def viewport(self, width: int, height: int) -> None:
        self._page.set_viewport_size({"width": width, "height": height})

    def screenshot(self, path: str) -> None:
        self._page.screenshot(path=path)

    def close(self) -> None:
        self._context.close()

    def throttle_cpu(self, rate: float) -> None:
        """Slow the page's CPU ``rate`` times (DevTools; 4 is a mid-range phone)."""
        self._context.new_cdp_session(self._page).send(
            "Emulation.setCPUThrottlingRate", {"rate": rate})


# --- Firefox (puppeteer-core over BiDi) --------------------------------------------
class PuppeteerDriver:
    """Firefox ESR through e2e/firefox_bridge.mjs (one node process)."""

    engine = "firefox"

    def __init__(self, prefs: dict[str, Any] | None = None) -> None:
        # ``prefs``: Firefox preferences of this profile (the live tables' bench sets some)
        self._profile = tempfile.mkdtemp(prefix="skyline-firefox-")
        self._proc = subprocess.Popen(
            ["node", str(BRIDGE)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._next = 0
        self.version = self._call("launch", browser="firefox", executablePath=FIREFOX,
                                  userDataDir=self._profile, prefs=prefs or {})
        self.viewport(1280, 800)

    def _call(self, op: str, **args: Any) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._next += 1
        self._proc.stdin.write(json.dumps({"id": self._next, "op": op, "args": args}) + "\n")
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"firefox bridge ended during {op}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise RuntimeError(f"firefox {op}: {answer['error']}")
        return answer["value"]

    def goto(self, url: str) -> None:
        self._call("goto", url=url)

    def reload(self) -> None:
        self._call("reload")

    def run(self, script: str) -> Any:
        return self._call("evaluate", script=script)

    def click(self, selector: str) -> None:
        self._call("click", selector=selector)

    def press(self, key: str) -> None:
        self._call("press", key=key)

    def viewport(self, width: int, height: int) -> None:
        self._call("viewport", width=width, height=height, touch=False)

    def screenshot(self, path: str) -> None:
        self._call("screenshot", path=path)

    def add_init_script(self, script: str) -> None:
        """Run ``script`` (statements) in every document the page opens from now on,
        before the page's own scripts (as Playwright's ``add_init_script``)."""
        self._call("addInitScript", script=script)

    def close(self) -> None:
        try:
            self._call("close")
        except Exception:
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        shutil.rmtree(self._profile, ignore_errors=True)


# --- WebKit (selenium WebKitGTK + MiniBrowser under Xvfb) ---------------------------
class _Xvfb:
    """A private X display for the MiniBrowser (which needs one), stopped on close."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self._proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24", "-nolisten",
             "tcp"], pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def close(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()


class SeleniumWebKitDriver:
    """WebKitGTK's MiniBrowser through WebKitWebDriver (selenium)."""

    engine = "webkit"

    def __init__(self, env: dict[str, str] | None = None) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.service import Service

        self._xvfb = _Xvfb()
        self._config = tempfile.mkdtemp(prefix="skyline-webkit-")
        (Path(self._config) / "gtk-3.0").mkdir()
        (Path(self._config) / "gtk-3.0" / "gtk.css").write_text(_NARROW_GTK_CSS)
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        service_env = {**os.environ, "DISPLAY": self._xvfb.display,
                       "XDG_CONFIG_HOME": self._config,
                       "XDG_DATA_HOME": str(Path(self._config) / "data"),
                       "XDG_CACHE_HOME": str(Path(self._config) / "cache"),
                       **(env or {})}
        service = Service(executable_path=WEBKIT_DRIVER, env=service_env)
        try:
            self._driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception:
            self._xvfb.close()
            raise
        self._driver.set_script_timeout(120)
        self._driver.set_page_load_timeout(120)
        self.viewport(1280, 800)

    def goto(self, url: str) -> None:
        self._driver.get(url)

    def reload(self) -> None:
        self._driver.refresh()

    def run(self, script: str) -> Any:
        wrapped = ("const done = arguments[arguments.length - 1];"
                   f"(async () => {{ {script} }})().then("
                   "(value) => done({ok: true, value: value === undefined ? null : value}),"
                   "(err) => done({ok: false, error: String(err && err.stack || err)}));")
        answer = self._driver.execute_async_script(wrapped)
        if not answer["ok"]:
            raise RuntimeError(f"webkit: {answer['error']}")
        return answer["value"]

    def click(self, selector: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.wait import WebDriverWait

        element = WebDriverWait(self._driver, 30).until(
            expected_conditions.element_to_be_clickable((By.CSS_SELECTOR, selector)))
        element.click()

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        ActionChains(self._driver).send_keys(getattr(Keys, key.upper(), key)).perform()

    def viewport(self, width: int, height: int) -> None:
        """The page's inner size (the window is bigger by its toolbar). The window
        resizes a while after it is asked to (seconds on a busy machine): each correction
        by the toolbar's size is worked out from the size the page settled at."""
        self._driver.set_window_size(width, height)
        deadline = time.monotonic() + 30
        while True:
            inner = self._settled_inner_size()
            if inner == [width, height] or time.monotonic() > deadline:
                return  # (the caller's wait for the size says if it never came)
            outer = self._driver.get_window_size()
            self._driver.set_window_size(outer["width"] + width - inner[0],
                                         outer["height"] + height - inner[1])

    def _settled_inner_size(self) -> list[int]:
        """The page's inner size once two reads 0.3 s apart agree (at most 5 s)."""
        last = None
        deadline = time.monotonic() + 5
        while True:
            inner = self._driver.execute_script("return [innerWidth, innerHeight];")
            if inner == last or time.monotonic() > deadline:
                return list(inner)
            last = inner
            time.sleep(0.3)

    def screenshot(self, path: str) -> None:
        self._driver.save_screenshot(path)

    def close(self) -> None:
        try:
            self._driver.quit()
        finally:
            self._xvfb.close()
            shutil.rmtree(self._config, ignore_errors=True)
