// The columns' widths: each sized to its content within the grid's own width (its
// output area's, not the window's), laid out again whenever that width changes (a
// ResizeObserver on the grid: a side panel opened or closed, the window resized), the
// columns giving way in the order of grid-fit.js; and the widths the reader chose
// (a header's edge dragged, or moved from the keyboard), kept across pages.

import { markCut } from "./grid-cells.js";
import { layColumns } from "./grid-fit.js";

// A width chosen by the reader, dragged or from the keyboard, stays within these bounds.
export const MIN_CHOSEN = 32;
export const MAX_CHOSEN = 2000;

// The width a column's edge is moved to, within the bounds, from `from` (its width then).
function bounded(width, from) {
  const low = Math.min(MIN_CHOSEN, from);
  const high = Math.max(MAX_CHOSEN, from);
  return Math.max(low, Math.min(high, Math.round(width)));
}

export function createWidths(view, { root, scroll, table, colgroup, thead }) {
  // Widths chosen by the reader (dragged or from the keyboard), by column name.
  const chosen = {};
  let fittedWidth = -1;

  // Each column's width with nothing cut: the table laid out at its natural size once.
  function naturalWidths() {
    // A column's set width would count as its least one: measure without any.
    for (const col of colgroup.children) col.style.width = "";
    table.classList.add("lk-measuring");
    const widths = Array.from(thead.querySelectorAll("th")).map((th) =>
      Math.ceil(th.getBoundingClientRect().width),
    );
    table.classList.remove("lk-measuring");
    return widths;
  }

  // Columns fit the grid (grid-fit.js: what gives way first); a column whose width
  // the reader chose keeps it. With width to spare, the last text column (or the last
  // column whose width was not chosen) takes it; with none, the table ends short of the
  // edge. What does not fit scrolls sideways inside the grid, its first column in view.
  function fit(force = false) {
    const available = scroll.clientWidth;
    if (!available || (!force && available === fittedWidth)) return;
    fittedWidth = available;
    root.style.setProperty("--lk-view-width", `${available}px`);
    const cols = view.shown();
    const natural = naturalWidths();
    if (natural.length !== cols.length + 1) return;
    const { widths, flexible } = layColumns(cols, natural, available, chosen);
    const total = widths.reduce((a, b) => a + b, 0);
    const cells = colgroup.children;
    widths.forEach((width, at) => {
      if (cells[at]) cells[at].style.width = `${width}px`;
    });
    // The first column stays in view when the table scrolls sideways, beside the toggles;
    // a cell scrolled into view stops beside them, not beneath.
    root.style.setProperty("--lk-first-left", `${widths[0]}px`);
    root.style.setProperty("--lk-sticky-width", `${widths[0] + (widths[1] || 0)}px`);
    let taker = flexible.length ? flexible[flexible.length - 1] : -1;
    for (let at = cols.length; taker < 0 && at > 0; at -= 1) {
      if (chosen[cols[at - 1].name] === undefined) taker = at;
    }
    if (total < available && taker > 0) {
      // Narrower than the grid: one column takes what is left.
      cells[taker].style.width = "";
      table.style.width = `${available}px`;
    } else {
      table.style.width = `${total}px`;
    }
    table.classList.add("lk-fitted");
    drawWidths();
    markCut(table);
  }

  // Each edge's value: its column's width as laid out, in whole pixels.
  function drawWidths() {
    for (const handle of thead.querySelectorAll(".lk-resize")) {
      const width = Math.round(handle.closest("th").getBoundingClientRect().width);
      handle.setAttribute("aria-valuenow", String(width));
      handle.setAttribute("aria-valuetext", `${width} pixels`);
      // A column laid out beyond the bounds (a narrow number, a long kept text) reads as
      // its own bound: a key never moves it the wrong way.
      handle.setAttribute("aria-valuemin", String(Math.min(MIN_CHOSEN, width)));
      handle.setAttribute("aria-valuemax", String(Math.max(MAX_CHOSEN, width)));
    }
  }

  function widthOf(name) {
    if (chosen[name] !== undefined) return chosen[name];
    const th = Array.from(thead.querySelectorAll("th")).find((cell) => cell.dataset.name === name);
    return th ? Math.round(th.getBoundingClientRect().width) : MIN_CHOSEN;
  }

  function choose(name, width, from) {
    chosen[name] = bounded(width, from);
    fit(true);
  }

  // Back to the width the layout gives the column (its content's, within the widget).
  function fitAgain(name) {
    delete chosen[name];
    fit(true);
  }

  const resized = typeof ResizeObserver === "function" ? new ResizeObserver(() => fit()) : null;
  if (resized) resized.observe(scroll);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => fit(true));

  return {
    fit,
    widthOf,
    choose,
    fitAgain,
    stop: () => {
      if (resized) resized.disconnect();
    },
  };
}
