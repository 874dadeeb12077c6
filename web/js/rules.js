// @ts-check
// The rules before Python. The build prerenders the rules dialog (rules/<lang>.html,
// the same HTML the page renders); the Rules buttons of the loading screen and of the
// "Starting…" bar open it. When Python is ready it takes over: an open prerendered
// panel is swapped for the live one (same place in the text), unless a live dialog is
// open (then it stays on top until closed). The rules are never open twice: when the
// live page opens its own Rules (a press made while it started, played once it is
// ready) the prerendered panel gives way to it.

import { DOM, element, isReady, openDialog } from "./dom.js";

const rulesHost = element("boot-rules");

function closeRules() {
  rulesHost.querySelector("dialog")?.close();
  rulesHost.replaceChildren();
  rulesHost.hidden = true;
  // back to the live dialog under them (the welcome dialog), if any
  const under = openDialog();
  if (under && !under.contains(document.activeElement)) {
    focusFirst(under, "input, select, button");
  }
}

/**
 * Focus the dialog's first field, else the first of `others`.
 * @param {Element} dialog
 * @param {string} others
 */
function focusFirst(dialog, others) {
  const first = dialog.querySelector(`#${DOM.dialogFirst}, ${others}`);
  if (first instanceof HTMLElement) first.focus();
}

function clickLiveRules() {
  document.getElementById(DOM.rulesButton)?.click();
}

/** The prerendered rules, opened before Python is ready (a Rules button, web/js/preboard.js). */
export async function openRules() {
  let html = "";
  try {
    const response = await fetch(`./rules/${document.documentElement.lang}.html`);
    if (response.ok) html = await response.text();
  } catch {
    // offline and not cached: the button does nothing
  }
  if (!html || isReady()) {
    if (html && isReady()) clickLiveRules();
    return;
  }
  rulesHost.innerHTML = html;
  rulesHost.hidden = false;
  rulesHost.querySelector("dialog")?.showModal();
  focusFirst(rulesHost, "button");
}

const LIVE_RULES = ".dlg-rules";

/** The live page opened its Rules while the prerendered ones are open: they give way
 * (the reader keeps their place), so one Rules dialog is open, not two. */
function giveWayToLiveRules() {
  const live = document.querySelector(`#${DOM.dialog} ${LIVE_RULES}`);
  if (rulesHost.hidden || !live) return;
  const top = rulesHost.querySelector(".dialog")?.scrollTop || 0;
  rulesHost.querySelector("dialog")?.close();
  rulesHost.replaceChildren();
  rulesHost.hidden = true;
  live.scrollTop = top;
}

/** The Rules buttons before Python, and the panel's own buttons and keys. */
export function offerRules() {
  const dialogRegion = document.getElementById(DOM.dialog);
  if (dialogRegion) new MutationObserver(giveWayToLiveRules).observe(dialogRegion, { childList: true });
  // Nothing here reaches the page's listeners (after ready they would act on the
  // live dialog).
  for (const kind of ["click", "keydown"]) {
    rulesHost.addEventListener(kind, (event) => {
      event.stopPropagation();
      if (event instanceof KeyboardEvent) {
        if (event.key === "Escape") {
          event.preventDefault();
          closeRules();
        }
        return;
      }
      const el = event.target instanceof Element ? event.target.closest("[data-action]") : null;
      if (!(el instanceof HTMLElement)) return;
      if (el.dataset.action === "close") closeRules();
      else if (el.dataset.action === "rules-goto") {
        rulesHost.querySelector(`#rules-${el.dataset.arg}`)?.scrollIntoView();
      }
    });
  }
  rulesHost.addEventListener("cancel", (event) => {
    event.preventDefault(); // closed by the keydown handler (the state stays in one place)
  });
  for (const button of document.querySelectorAll("[data-boot-rules]")) {
    button.addEventListener("click", () => openRules());
  }
}

/** Python is ready: the live page takes over an open prerendered panel. */
export function handOverRules() {
  if (rulesHost.hidden) return;
  if (document.getElementById(DOM.dialog)?.childElementCount) {
    // A live dialog opened (showModal) over them: put the rules back on top, where the
    // player was reading; the live dialog is there when they are closed.
    const native = rulesHost.querySelector("dialog");
    if (native?.open) {
      const top = native.scrollTop;
      native.close();
      native.showModal();
      native.scrollTop = top;
    }
    return;
  }
  const top = rulesHost.querySelector(".dialog")?.scrollTop || 0;
  closeRules();
  clickLiveRules();
  const liveDialog = document.querySelector(`#${DOM.dialog} .dialog`);
  if (liveDialog) liveDialog.scrollTop = top;
}
