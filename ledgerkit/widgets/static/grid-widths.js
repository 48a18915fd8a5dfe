// The columns' widths: each sized to its content within the widget's width, laid out
// again when the widget is resized, and the widths the reader chose (a header's edge
// dragged, or moved from the keyboard), kept across pages.

// Columns whose long values may be cut (with an ellipsis) to fit the others; numbers,
// shortened ids and bools always show their whole text.
const FLEXIBLE = new Set(["text", "json"]);
// Times give way too, last, when the widget is too narrow for them whole.
const YIELDING = new Set(["time"]);
// A flexible column is cut only beyond this share of the widget's width...
const FLEX_CAP = 0.6;
// ...and never below this many pixels.
const FLEX_MIN = 96;
// A width chosen by the reader, dragged or from the keyboard, stays within these bounds.
export const MIN_CHOSEN = 32;
export const MAX_CHOSEN = 2000;

// Lower the widest of the columns at `indices` to one level (never below FLEX_MIN) until
// `excess` pixels are taken; returns what could not be taken.
function levelDown(widths, indices, excess) {
  const order = indices.filter((at) => widths[at] > FLEX_MIN).sort((a, b) => widths[b] - widths[a]);
  let total = 0;
  for (let k = 0; k < order.length && excess > 0; k += 1) {
    total += widths[order[k]];
    const nextWidth = k + 1 < order.length ? widths[order[k + 1]] : FLEX_MIN;
    const level = Math.max(FLEX_MIN, Math.floor((total - excess) / (k + 1)));
    if (level >= nextWidth || k + 1 === order.length) {
      const before = order.reduce((sum, at) => sum + widths[at], 0);
      for (const at of order.slice(0, k + 1)) widths[at] = Math.min(widths[at], level);
      return excess - (before - order.reduce((sum, at) => sum + widths[at], 0));
    }
  }
  return excess;
}

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

  // Columns fit the widget: numbers and ids whole; text and JSON whole up to a share of
  // the width, then shrunk (JSON first, the widest first) until the table fits, never
  // below FLEX_MIN, then times if need be; a column whose width the reader chose keeps
  // it. Spare width goes back to the columns cut, then to the last text column (or the
  // last column whose width was not chosen; with none, the table ends short of the edge).
  function fit(force = false) {
    const available = scroll.clientWidth;
    if (!available || (!force && available === fittedWidth)) return;
    fittedWidth = available;
    root.style.setProperty("--lk-view-width", `${available}px`);
    const cols = view.shown();
    const natural = naturalWidths();
    if (natural.length !== cols.length + 1) return;
    const cap = Math.max(FLEX_MIN, Math.round(available * FLEX_CAP));
    const widths = natural.slice();
    const flexible = [];
    cols.forEach((column, i) => {
      const at = i + 1;
      if (chosen[column.name] !== undefined) {
        widths[at] = chosen[column.name];
      } else if (FLEXIBLE.has(column.kind) && !column.keep) {
        widths[at] = Math.min(natural[at], cap);
        flexible.push(at);
      }
    });
    const sum = () => widths.reduce((a, b) => a + b, 0);
    let excess = sum() - available;
    if (excess > 0) {
      const json = flexible.filter((at) => cols[at - 1].kind === "json");
      excess = levelDown(widths, json, excess);
      excess = levelDown(widths, flexible, excess);
      const times = [];
      cols.forEach((column, i) => {
        if (YIELDING.has(column.kind) && chosen[column.name] === undefined) times.push(i + 1);
      });
      levelDown(widths, times, excess);
    } else if (excess < 0) {
      let spare = -excess;
      const cut = flexible
        .filter((at) => natural[at] > widths[at])
        .sort((a, b) => natural[a] - widths[a] - (natural[b] - widths[b]));
      cut.forEach((at, k) => {
        const give = Math.min(Math.floor(spare / (cut.length - k)), natural[at] - widths[at]);
        widths[at] += give;
        spare -= give;
      });
    }
    const total = sum();
    const cells = colgroup.children;
    widths.forEach((width, at) => {
      if (cells[at]) cells[at].style.width = `${width}px`;
    });
    let taker = flexible.length ? flexible[flexible.length - 1] : -1;
    for (let at = cols.length; taker < 0 && at > 0; at -= 1) {
      if (chosen[cols[at - 1].name] === undefined) taker = at;
    }
    if (total < available && taker > 0) {
      // Narrower than the widget: one column takes what is left.
      cells[taker].style.width = "";
      table.style.width = `${available}px`;
    } else {
      table.style.width = `${total}px`;
    }
    table.classList.add("lk-fitted");
    drawWidths();
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
