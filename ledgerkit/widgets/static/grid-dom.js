// What every part of the grid's view shares: making elements, telling a text field from
// the rest, and the copy buttons of the cells and of an expanded row.

// In DejaVu Sans and the other fonts notebooks fall back to, unlike most "copy" symbols.
const COPY_GLYPH = "❐";

export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function isTextField(target) {
  return Boolean(target && target.closest && target.closest("input, textarea, select"));
}

// The Clipboard API needs a secure context and the page's focus; a hidden textarea and
// execCommand("copy") cover the rest (plain-http Voilà, some embedded webviews).
async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (_) {
    // fall through to the textarea
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.top = "0";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch (_) {
    copied = false;
  }
  area.remove();
  return copied;
}

export function copyButton(text, label) {
  const copy = element("button", "lk-copy", COPY_GLYPH);
  copy.type = "button";
  copy.tabIndex = -1;
  copy.title = text.length > 80 ? `Copy ${label}` : `Copy ${text}`;
  copy.setAttribute("aria-label", `Copy ${label}`);
  copy.dataset.value = text;
  return copy;
}

// A copy button pressed: its value copied, and for a moment whether that worked.
export async function copyFrom(button) {
  const copied = await copyText(button.dataset.value);
  button.textContent = copied ? "✓" : "✗";
  button.classList.toggle("lk-copied", copied);
  setTimeout(() => {
    button.textContent = COPY_GLYPH;
    button.classList.remove("lk-copied");
  }, 1200);
}
