// @ts-check
// What the player typed into a dialog survives its redraw: a dialog redrawn while the
// player types (Python's answer to a change in another field, or a screen before the
// board shown in its place, web/js/preboard.js) keeps the fields the redraw did not
// change itself, and the caret of the focused one.

/**
 * A form field's value as the player left it, and as the last render wrote it.
 * @typedef {{typed: string, rendered: string, start: number | null, end: number | null}} TypedField
 */

/** @param {Element} el @returns {el is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} */
function isField(el) {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement;
}

/**
 * The value a render wrote into a field (its default), against which typing is seen.
 * @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} field
 */
function renderedValue(field) {
  if (field instanceof HTMLSelectElement) {
    const chosen = [...field.options].find((option) => option.defaultSelected) ?? field.options[0];
    return chosen ? chosen.value : "";
  }
  if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
    return String(field.defaultChecked);
  }
  return field.defaultValue;
}

/** @param {HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement} field */
function currentValue(field) {
  if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
    return String(field.checked);
  }
  return field.value;
}

/**
 * The fields of a dialog that the player changed since its last render, and the one
 * with the focus, by id. A dialog redrawn while the player types (its answer to a
 * change in another field) must not put back what was there before, nor move the caret.
 * @param {Element} dialog
 * @returns {Map<string, TypedField>}
 */
export function typedFields(dialog) {
  /** @type {Map<string, TypedField>} */
  const typed = new Map();
  for (const field of dialog.querySelectorAll("input, textarea, select")) {
    if (!isField(field) || !field.id) continue;
    const value = currentValue(field);
    const rendered = renderedValue(field);
    // the focused field keeps its caret or selection too (Tab into a name selects it)
    if (value === rendered && field !== document.activeElement) continue;
    const [start, end] = caretOf(field);
    typed.set(field.id, { typed: value, rendered, start, end });
  }
  return typed;
}

/**
 * Put the player's typing back into the redrawn dialog, where the render did not
 * change the field itself (a new value from Python wins).
 * @param {Element} dialog
 * @param {Map<string, TypedField>} typed
 */
export function keepTyped(dialog, typed) {
  for (const [id, kept] of typed) {
    const field = dialog.querySelector(`#${CSS.escape(id)}`);
    if (!field || !isField(field) || renderedValue(field) !== kept.rendered) continue;
    if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
      field.checked = kept.typed === "true";
      continue;
    }
    if (field.value !== kept.typed) field.value = kept.typed;
    putCaret(field, kept.start, kept.end);
  }
}

/**
 * A text field's caret or selection; [null, null] for any other element (a select, a
 * button) or a field without one (a number, a checkbox).
 * @param {Element | null} el
 * @returns {[number | null, number | null]}
 */
export function caretOf(el) {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return [null, null];
  try {
    return [el.selectionStart, el.selectionEnd];
  } catch {
    return [null, null];
  }
}

/**
 * Put a caret or selection back where caretOf found it (nothing where there was none).
 * @param {Element} el
 * @param {number | null} start
 * @param {number | null} end
 */
export function putCaret(el, start, end) {
  if (start === null || end === null) return;
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return;
  try {
    el.setSelectionRange(start, end);
  } catch {
    // a field without a selection
  }
}
