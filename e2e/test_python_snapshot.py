"""Return visits restore the interpreter's memory snapshot (web/snapshot.mjs), and every
way it can fail ends in a normal start with the saved games untouched.

After a good start the page makes the snapshot in a worker of its own and stores it in
Cache Storage (web/boot.js, web/snapshot-worker.mjs); the next visit restores it, on the
worker path and on the main-thread path. A truncated, corrupt or another build's entry,
one that does not restore, storage that is blocked or full: each starts Python normally,
drops the entry and says nothing to the player. html[data-python-start]
(main.DomHost.ready) says how Python started. After a restore the interpreter's
randomness is reseeded: two visits never start the same game.

- The worker path starts from ``warm_context`` (a profile whose first visit made and
  stored the snapshot, as the page does for every player): the stored entry is a whole
  30 MiB heap without its zero pages, the visit restores it, starts a new game and
  plays; then each damaged entry, and another restored visit whose new game differs.
  The damaged entries are made from a copy of the good one kept in a cache of the
  test's own (``test-good``), so each case needs no new snapshot. Some pass every check
  (this build's key, a right checksum) and are wrong: one that Pyodide cannot restore,
  one that restores and then fails main.py's import, one with garbage in the middle;
  the one that fails after its restore makes the page start again at once (its trial
  mark), that start drops it and boots normally, and no other snapshot of this build is
  made. The no-progress timer is turned off: no case may wait for it.
- The main-thread path (no SharedArrayBuffer) is one visitor from the first visit on:
  Python boots and the page makes the snapshot there, the next visit restores it; a
  restore that never returns is given up and Python boots normally; then with Cache
  Storage blocked, then full, then never answering each visit starts normally (cannot
  store a snapshot) and plays. (That a first visit on the worker path
  boots without waiting for a snapshot is checked by e2e/test_boot.py's first visit.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conftest import wait_for_snapshot_made
from fault_log import scenario
from playwright.sync_api import BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard

LINK = "#play?p=Ann&seed=snap1&start=0&nine=0"
STORED = "python-snapshot"
# Everything the page keeps of the player's (the last render's picture is no game).
GAMES = """() => Object.fromEntries(Object.keys(localStorage)
  .filter((k) => k.startsWith("skyline.") && k !== "skyline.snapshot")
  .sort().map((k) => [k, localStorage.getItem(k)]))"""
# The stored entry's size unpacked and its bytes as stored (web/snapshot.mjs).
STORED_SIZES = f"""async () => {{
  const stored = await caches.open("{STORED}");
  const response = await stored.match(new URL("./python-snapshot.bin", location.href).href);
  return {{ size: Number(response.headers.get("x-skyline-size")),
           stored: (await response.arrayBuffer()).byteLength }};
}}"""
# Whether the snapshot itself is stored (the cache may also hold its trial mark, or the
# note that this build's snapshots do not restore here).
ENTRIES = f"""async () => (await (await caches.open('{STORED}')).keys())
  .filter((r) => r.url.endsWith('/python-snapshot.bin')).length"""
REFUSED = f"""async () => (await (await caches.open('{STORED}')).keys())
  .some((r) => r.url.endsWith('/python-snapshot-refused'))"""
KEEP_GOOD = f"""async () => {{
  const url = new URL("./python-snapshot.bin", location.href).href;
  await (await caches.open("test-good")).put(url, await (await caches.open("{STORED}")).match(url));
}}"""
# The good entry, damaged one way, stored in its place.
DAMAGE = f"""async (kind) => {{
  const snapshots = await import("./snapshot.mjs");
  const good = await caches.open("test-good");
  const [request] = await good.keys();
  const response = await good.match(request);
  const headers = new Headers(response.headers);
  let body = new Uint8Array(await response.arrayBuffer());
  if (kind === "truncated") body = body.slice(0, body.length >> 1);
  if (kind === "corrupt") body[body.length >> 1] ^= 0x5a;
  if (kind === "other-build") headers.set(snapshots.KEY_HEADER, "0123456789abcdef");
  if (kind === "too-big") {{
    headers.set("x-skyline-size", String(snapshots.MAX_SNAPSHOT_BYTES + 4096));
  }}
  const size = Number(headers.get("x-skyline-size"));
  // whole, of this build and with a right checksum (every check passes), but wrong:
  const wrong = {{
    // not an interpreter Pyodide can restore
    "does-not-restore": (bytes) => bytes.fill(0, 0, 1 << 16),
    // it restores, then main.py's import of Controller fails (the name is changed)
    "fails-on-import": (bytes) => {{
      const from = new TextEncoder().encode("Controller");
      for (let i = bytes.indexOf(from[0]); i >= 0; i = bytes.indexOf(from[0], i + 1)) {{
        if (from.every((b, j) => bytes[i + j] === b)) bytes[i + from.length - 1] = 0x78; // x
      }}
    }},
    // 64 KiB of garbage in the middle of the heap
    "garbage": (bytes) => {{
      const middle = bytes.length >> 1;
      for (let i = 0; i < 65536; i++) bytes[middle + i] = (i * 2654435761) >>> 24;
    }},
  }}[kind];
  if (wrong) {{
    const bytes = snapshots.unpack(body, size);
    wrong(bytes);
    await snapshots.storeSnapshot(headers.get(snapshots.KEY_HEADER), snapshots.pack(bytes), size);
    return;
  }}
  await (await caches.open("{STORED}")).put(request.url, new Response(body, {{ headers }}));
}}"""
RESTORE_GOOD = f"""async () => {{
  const good = await caches.open("test-good");
  const [request] = await good.keys();
  await caches.delete("{STORED}");
  await (await caches.open("{STORED}")).put(request.url, await good.match(request));
}}"""


def python_start(page: Page) -> str:
    return str(page.evaluate("document.documentElement.dataset.pythonStart"))


def snapshot_made(page: Page) -> dict[str, Any]:
    wait_for_snapshot_made(page)
    made: dict[str, Any] = page.evaluate("window.skylineSnapshotMade")
    return made


def first_visit(ctx: BrowserContext, site_url: str, open_app: Callable[..., Page]) -> Page:
    """A game in progress, and the snapshot this visit made."""
    page = open_game(ctx, site_url, open_app)
    made = snapshot_made(page)
    assert made["ok"], made
    check_size(made)
    return page


def open_game(ctx: BrowserContext, site_url: str, open_app: Callable[..., Page]) -> Page:
    """A game in progress (a link, accepted)."""
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    open_app(page, site_url + LINK)
    page.wait_for_function("() => !location.hash && !!document.querySelector('#yard-G')")
    if page.locator("[data-action=link-accept]").count():
        page.click("[data-action=link-accept]")
    return page


def check_size(made: dict[str, Any]) -> None:
    # a whole heap of the 30 MiB Pyodide restores, stored without its zero pages
    assert 30 * 2**20 <= made["size"] <= 30 * 2**20 + 4096, made
    assert 0 < made["stored"] < made["size"], made


def plays(page: Page) -> None:
    """The interpreter plays: one more die taken from the yard (each can be put back; the
    third is shown as a die to roll, no longer as taken)."""
    before = page.locator("[data-action=untake]").count()
    page.click("#yard-G")
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-action=untake]').length === n", arg=before + 1)


def reload(page: Page, wait_ready: Callable[[Page], None]) -> None:
    page.reload(wait_until="commit")
    wait_ready(page)


def new_solo_seed(page: Page) -> str:
    """Start a new solo game with a random seed (the new-game dialog); its seed."""
    page.click("#btn-new")
    page.click("#ng-start-btn")
    page.wait_for_function("() => !document.querySelector('#dialog dialog')")
    seed: str = page.evaluate(
        """() => {
          const index = JSON.parse(localStorage.getItem("skyline.games"));
          const id = index.current;
          const game = JSON.parse(localStorage.getItem("skyline.game." + id));
          return JSON.stringify(game).match(/"seed":\\s*"([^"]*)"/)[1];
        }"""
    )
    return seed


def test_return_visits_restore_and_every_failure_starts_normally(
    warm_context: Callable[..., BrowserContext], site_url: str, guard: Guard,
    open_app: Callable[..., Page], wait_ready: Callable[[Page], None],
) -> None:
    ctx = warm_context()
    # a failure is told at once, never by the no-progress timer: it would end no start here
    ctx.add_init_script("window.__skylineStallMs = 600000")
    guard.attach(ctx)
    guard.allow_console("the Python snapshot did not restore")
    guard.allow_console("Skyline failed to start")  # the failed restore, before it starts again
    guard.allow_console("cannot import name|fatal error|Pyodide")
    page = open_game(ctx, site_url, open_app)
    # the snapshot the profile's first visit made, as stored
    check_size(page.evaluate(STORED_SIZES))
    assert python_start(page) == "restored"
    assert page.evaluate("document.documentElement.dataset.python") == "worker"
    # two restored visits never start the same game (the randomness is reseeded): this
    # one's new game, and the last one's below
    seeds = [new_solo_seed(page)]
    page.click("#yard-G")  # the restored interpreter plays
    page.wait_for_selector("[data-testid=taken]")
    page.evaluate(KEEP_GOOD)
    taken = page.locator("[data-testid=taken]").inner_text()

    # (a restore that fails after it returned: the page starts again at once, and that
    # start drops the entry, boots normally and makes no other of this build)
    for kind, statuses in (("truncated", {"unreadable"}), ("corrupt", {"unreadable"}),
                           ("other-build", {"other-build"}), ("too-big", {"unreadable"}),
                           ("does-not-restore", {"restore-failed"}),
                           ("fails-on-import", {"untried"}),
                           ("garbage", {"untried", "restore-failed", "restored"})):
        with scenario(f"memory snapshot: {kind}") as outcome:
            page.evaluate(DAMAGE, kind)
            games = page.evaluate(GAMES)
            reload(page, wait_ready)
            status = python_start(page)
            assert status in statuses, kind
            if status != "restored":  # (garbage no page reads: it restores and plays)
                assert page.evaluate(ENTRIES) == 0, f"the {kind} snapshot was not dropped"
            if status in ("untried", "restore-failed"):
                assert page.evaluate(REFUSED), f"{kind}: another snapshot of this build is made"
                made = snapshot_made(page)
                assert made == {"ok": False, "reason": "refused"}, made
            assert page.evaluate(GAMES) == games, f"a {kind} snapshot changed the saved games"
            assert page.locator("[data-testid=taken]").inner_text() == taken  # the same turn
            # nothing said to the player
            assert page.locator("#notices .notice, #loading-error:not([hidden])").count() == 0
            outcome.kept(f"started ({status}), the games and the turn as they were")

    # restored again: another game
    page.evaluate(RESTORE_GOOD)
    reload(page, wait_ready)
    assert python_start(page) == "restored"
    seeds.append(new_solo_seed(page))
    assert seeds[0] != seeds[1], "two restored visits started the same game"
    ctx.close()


# The main-thread path (no SharedArrayBuffer, as in stock WebKit), where a test can
# block or fill the page's Cache Storage: sessionStorage says which, for the next load.
STORAGE_FAULTS = """
delete self.SharedArrayBuffer;
{
  const fault = sessionStorage.getItem("test-cache-fault");
  if (fault === "blocked") {
    CacheStorage.prototype.open = () =>
      Promise.reject(new DOMException("blocked", "SecurityError"));
  } else if (fault === "full") {
    Cache.prototype.put = () =>
      Promise.reject(new DOMException("full", "QuotaExceededError"));
  } else if (fault === "hang") {
    // a restore that never returns (web/snapshot.mjs's test hook, main thread only)
    window.__skylineRestoreFault = "hang";
    window.__skylineRestoreTimeoutMs = 2000;
  } else if (fault === "silent") {
    // a store that never answers (seen in WebKit under load): reading and dropping hang
    CacheStorage.prototype.open = () => new Promise(() => {});
    CacheStorage.prototype.delete = () => new Promise(() => {});
  }
}
"""


def test_main_thread_restores_and_storage_blocked_or_full_starts_normally(
    persistent_context: Callable[..., BrowserContext], site_url: str, guard: Guard,
    open_app: Callable[..., Page], wait_ready: Callable[[Page], None],
) -> None:
    ctx = persistent_context()
    ctx.add_init_script(STORAGE_FAULTS)
    guard.attach(ctx)
    guard.allow_console("the Python snapshot did not restore")
    page = first_visit(ctx, site_url, open_app)
    assert page.evaluate("document.documentElement.dataset.python") == "main"
    assert python_start(page) == "boot"  # a first visit never waits for a snapshot
    reload(page, wait_ready)
    assert python_start(page) == "restored"

    # a restore that never returns: given up, the entry dropped, Python boots normally
    page.evaluate("sessionStorage.setItem('test-cache-fault', 'hang')")
    games = page.evaluate(GAMES)
    reload(page, wait_ready)
    assert python_start(page) == "restore-failed"
    assert page.evaluate(ENTRIES) == 0 and page.evaluate(REFUSED)
    assert page.evaluate(GAMES) == games

    # blocked (it cannot be read); full with none stored; silent (it never answers: the
    # read and the drop give up), last, as this page's own calls of it would not end either
    for fault, status in (("blocked", "unreadable"), ("full", "none"),
                          ("silent", "unreadable")):
        if fault == "full":
            page.evaluate(f"caches.delete('{STORED}')")
        page.evaluate("(fault) => sessionStorage.setItem('test-cache-fault', fault)", fault)
        games = page.evaluate(GAMES)
        reload(page, wait_ready)
        assert python_start(page) == status, fault
        if fault != "silent":  # (a silent store never says whether it has one)
            made = snapshot_made(page)
            assert not made["ok"], f"{fault}: {made}"  # it could not be stored; nothing else
        assert page.evaluate(GAMES) == games, f"storage {fault} changed the saved games"
        plays(page)
        assert page.locator("#notices .notice, #loading-error:not([hidden])").count() == 0, fault
    ctx.close()
