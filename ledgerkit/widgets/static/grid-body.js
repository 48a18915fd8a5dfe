// The rows of the page shown: drawn from the model, the selected one and its focused
// cell marked, and what a click or a double-click on them asks of the kernel.

import { drawCell } from "./grid-cells.js";
import { drawDetail, drawToggle, toggle } from "./grid-detail.js";
import { copyFrom, element } from "./grid-dom.js";

export function createBody(model, view, { table, tbody }) {
  let selected = model.get("selected_index");
  // The focused cell: an index into view.shown(), or -1 for the row's toggle.
  let focusColumn = 0;

  function drawSelection(reveal = true) {
    let current = null;
    tbody.querySelectorAll("tr.lk-row").forEach((tr, index) => {
      const on = index === selected;
      tr.classList.toggle("lk-selected", on);
      tr.setAttribute("aria-selected", on ? "true" : "false");
      Array.from(tr.children).forEach((td, c) => {
        td.classList.toggle("lk-focus", on && c === focusColumn + 1);
      });
      if (on) current = tr;
    });
    // The focused cell brought into view, sideways too when the table is wider than the grid.
    const cell = current && (current.children[focusColumn + 1] || current);
    if (reveal && cell && cell.scrollIntoView) {
      cell.scrollIntoView({ block: "nearest", inline: "nearest" });
    }
  }

  function drawBody() {
    const cols = view.shown();
    const list = view.rows();
    selected = model.get("selected_index");
    focusColumn = Math.max(-1, Math.min(focusColumn, cols.length - 1));
    if (!list.length) {
      const tr = element("tr", "lk-empty");
      const td = element("td", "", model.get("loading") ? "" : "No rows");
      td.colSpan = cols.length + 1;
      tr.append(td);
      tbody.replaceChildren(tr);
      return;
    }
    const open = view.expandedIndex();
    const drawn = [];
    list.forEach((row, index) => {
      const tr = element("tr", "lk-row");
      tr.dataset.index = String(index);
      tr.setAttribute("aria-selected", "false");
      tr.append(drawToggle(index === open));
      for (const column of cols) tr.append(drawCell(column, row[column.name]));
      drawn.push(tr);
      if (index === open) drawn.push(drawDetail(view.detail(), cols.length + 1));
    });
    tbody.replaceChildren(...drawn);
    drawSelection(false);
  }

  // The selection the kernel set (or confirmed).
  function selectionChanged() {
    selected = model.get("selected_index");
    drawSelection();
  }

  function select(index) {
    const list = view.rows();
    if (!list.length) return;
    const target = Math.max(0, Math.min(index, list.length - 1));
    const changed = target !== selected;
    selected = target;
    drawSelection();
    if (changed) model.send({ type: "select", index: target });
  }

  function activate(index) {
    const column = view.shown()[focusColumn];
    model.send({ type: "activate", index, column: column ? column.name : "" });
  }

  // The focus moved `step` cells right (left when negative), within the row.
  function moveFocus(step) {
    focusColumn = Math.max(-1, Math.min(focusColumn + step, view.shown().length - 1));
    drawSelection();
  }

  // A list whose rows each open something: a single click opens the row.
  function opensOnClick() {
    return Boolean(model.get("opens_on_click") && model.get("activatable"));
  }

  function rowAndColumn(event) {
    const tr = event.target.closest("tr.lk-row");
    if (!tr) return null;
    const td = event.target.closest("td");
    if (td) focusColumn = Array.prototype.indexOf.call(tr.children, td) - 1;
    return Number(tr.dataset.index);
  }

  tbody.addEventListener("click", (event) => {
    const copy = event.target.closest("button.lk-copy");
    if (copy) {
      event.stopPropagation();
      copyFrom(copy);
      return;
    }
    const index = rowAndColumn(event);
    if (index === null) return;
    select(index);
    if (event.target.closest("button.lk-toggle")) toggle(model, view, index);
    // Only the first click of a double-click opens: the row is opened once.
    else if (opensOnClick() && event.detail <= 1) activate(index);
    table.focus({ preventScroll: true });
  });

  // A double-click activates: it should not also select the word under the pointer
  // (in the rows; the text of an expanded row stays selectable).
  tbody.addEventListener("mousedown", (event) => {
    if (event.detail > 1 && event.target.closest("tr.lk-row")) event.preventDefault();
  });

  tbody.addEventListener("dblclick", (event) => {
    if (event.target.closest("button.lk-copy, button.lk-toggle")) return;
    if (opensOnClick()) return; // its first click opened the row already
    const index = rowAndColumn(event);
    if (index === null) return;
    if (model.get("activatable")) activate(index);
    else toggle(model, view, index);
  });

  return {
    drawBody,
    selectionChanged,
    select,
    activate,
    moveFocus,
    toggle: (index) => toggle(model, view, index),
    selected: () => selected,
    focusColumn: () => focusColumn,
  };
}
