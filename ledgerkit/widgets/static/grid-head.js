// The header row: each column's label (a button that asks the kernel to sort, in a
// sortable grid) and its right edge, dragged or moved from the keyboard to resize the
// column, as a vertical splitter is.

import { NUMERIC } from "./grid-cells.js";
import { element } from "./grid-dom.js";
import { MAX_CHOSEN, MIN_CHOSEN } from "./grid-widths.js";

// What an arrow key on a header's edge moves it by, and with Shift.
const KEY_STEP = 10;
const KEY_STEP_LARGE = 50;

// A header's right edge; its value, the column's width in pixels, is set by the widths.
function resizeHandle(column) {
  const handle = element("span", "lk-resize");
  handle.dataset.name = column.name;
  handle.tabIndex = 0;
  handle.setAttribute("role", "separator");
  handle.setAttribute("aria-orientation", "vertical");
  handle.setAttribute("aria-label", `Resize column ${column.label}`);
  handle.title = "Drag, or ← / →, to resize; double-click, or Enter, to fit";
  return handle;
}

export function createHead(model, view, { root, colgroup, thead }, widths) {
  function drawHead() {
    const cols = view.shown();
    const sortable = Boolean(model.get("sortable"));
    const order = model.get("sort") || {};
    const tr = element("tr");
    const toggleHead = element("th", "lk-toggle-cell");
    toggleHead.setAttribute("aria-label", "Details");
    tr.append(toggleHead);
    const cells = [element("col", "lk-toggle-col")];
    for (const column of cols) {
      const th = element("th", NUMERIC.has(column.kind) ? "lk-num" : "");
      th.scope = "col";
      th.dataset.name = column.name;
      th.dataset.label = column.label;
      if (sortable) {
        const button = element("button", "lk-sort", column.label);
        button.type = "button";
        button.dataset.name = column.name;
        const on = order.column === column.name;
        const mark = element("span", "lk-sort-mark", on ? (order.descending ? " ▼" : " ▲") : "");
        button.append(mark);
        button.title = `Sort by ${column.label}`;
        th.setAttribute("aria-sort", on ? (order.descending ? "descending" : "ascending") : "none");
        th.append(button);
      } else {
        th.append(element("span", "lk-label", column.label));
      }
      th.append(resizeHandle(column));
      tr.append(th);
      cells.push(element("col"));
    }
    // Drawn again (a sort, a page): the header control that had the focus keeps it.
    const focused = thead.contains(document.activeElement) ? document.activeElement : null;
    colgroup.replaceChildren(...cells);
    thead.replaceChildren(tr);
    if (focused && focused.dataset.name !== undefined) {
      const again = Array.from(thead.querySelectorAll(`.${focused.classList[0]}`)).find(
        (node) => node.dataset.name === focused.dataset.name,
      );
      if (again) again.focus({ preventScroll: true });
    }
  }

  let drag = null;
  thead.addEventListener("pointerdown", (event) => {
    const handle = event.target.closest(".lk-resize");
    if (!handle) return;
    event.preventDefault();
    event.stopPropagation();
    const th = handle.closest("th");
    const width = th.getBoundingClientRect().width;
    drag = { name: handle.dataset.name, x: event.clientX, width, from: Math.round(width) };
    handle.setPointerCapture(event.pointerId);
    root.classList.add("lk-dragging");
  });
  thead.addEventListener("pointermove", (event) => {
    if (!drag) return;
    widths.choose(drag.name, drag.width + event.clientX - drag.x, drag.from);
  });
  const endDrag = () => {
    drag = null;
    root.classList.remove("lk-dragging");
  };
  thead.addEventListener("pointerup", endDrag);
  thead.addEventListener("pointercancel", endDrag);
  thead.addEventListener("dblclick", (event) => {
    const handle = event.target.closest(".lk-resize");
    if (!handle) return;
    widths.fitAgain(handle.dataset.name);
  });
  thead.addEventListener("keydown", (event) => {
    const handle = event.target.closest && event.target.closest(".lk-resize");
    if (!handle || event.altKey || event.ctrlKey || event.metaKey) return;
    const name = handle.dataset.name;
    const from = widths.widthOf(name);
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    switch (event.key) {
      case "ArrowLeft":
        widths.choose(name, from - step, from);
        break;
      case "ArrowRight":
        widths.choose(name, from + step, from);
        break;
      case "Home":
        widths.choose(name, Math.min(MIN_CHOSEN, from), from);
        break;
      case "End":
        widths.choose(name, Math.max(MAX_CHOSEN, from), from);
        break;
      case "Enter":
        widths.fitAgain(name);
        break;
      default:
        return;
    }
    // Handled here: keep the notebook from treating the key as one of its shortcuts.
    event.preventDefault();
    event.stopPropagation();
  });
  thead.addEventListener("click", (event) => {
    if (event.target.closest(".lk-resize")) return;
    const button = event.target.closest("button.lk-sort");
    if (button) model.send({ type: "sort", column: button.dataset.name });
  });

  return { drawHead };
}
