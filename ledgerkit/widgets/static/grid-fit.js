// How the columns share the grid's width: each at its content's width, and when the
// table is wider than the grid, the columns that give way, in a stated order. Pure
// arithmetic on widths in pixels, so that it can be tested without laying anything out.

// When the table is too wide, columns give way in this order, each step taken only as
// far as needed for the table to fit, the widest column of a step first, and none below
// FLEX_MIN pixels. A cut value ends in an ellipsis and is read whole in its tooltip or
// by expanding the row (grid-cells.js, markCut).
export const GIVE_WAY = [
  // 1. JSON values: long, and read best expanded anyway.
  { name: "json", kinds: ["json"] },
  // 2. Text, Move types and function names (not kept with Column(keep=True)).
  { name: "text", kinds: ["text", "move"] },
  // 3. Times: only when that makes the whole table fit; else they stay whole.
  { name: "time", kinds: ["time"], onlyIfItFits: true },
];
// Never cut: numbers, versions, shortened ids (address, hash, handle) and bools, whose
// whole text is short; columns kept (keep); widths the reader chose. What still does not
// fit scrolls sideways inside the grid, its first column kept in view (grid-body.css).

// Text cut only beyond this share of the grid's width...
export const FLEX_CAP = 0.6;
// ...and never below this many pixels.
export const FLEX_MIN = 96;

const FLEXIBLE = new Set(["json", "text", "move"]);

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

// What the columns at `indices` can give before reaching FLEX_MIN.
function room(widths, indices) {
  return indices.reduce((sum, at) => sum + Math.max(0, widths[at] - FLEX_MIN), 0);
}

// The widths of the table's columns in a grid `available` pixels wide. `natural[0]` is
// the toggle column's width, `natural[i + 1]` that of `columns[i]` ({name, kind, keep})
// with nothing cut; `chosen` the widths the reader chose, by column name. Returns
// {widths, flexible (the indices whose text may be cut), overflow (pixels that still
// do not fit: the grid scrolls them)}.
export function layColumns(columns, natural, available, chosen = {}) {
  const cap = Math.max(FLEX_MIN, Math.round(available * FLEX_CAP));
  const widths = natural.slice();
  const flexible = [];
  const yielding = {};
  columns.forEach((column, i) => {
    const at = i + 1;
    if (chosen[column.name] !== undefined) {
      widths[at] = chosen[column.name];
      return;
    }
    if (column.keep) return;
    if (FLEXIBLE.has(column.kind)) {
      widths[at] = Math.min(natural[at], cap);
      flexible.push(at);
    }
    const step = GIVE_WAY.find((s) => s.kinds.includes(column.kind));
    if (step) (yielding[step.name] = yielding[step.name] || []).push(at);
  });
  const sum = () => widths.reduce((a, b) => a + b, 0);
  let excess = sum() - available;
  if (excess > 0) {
    for (const step of GIVE_WAY) {
      const indices = yielding[step.name] || [];
      if (excess <= 0 || (step.onlyIfItFits && room(widths, indices) < excess)) continue;
      excess = levelDown(widths, indices, excess);
    }
  } else if (excess < 0) {
    // Spare width goes back to the columns the cap cut, the least cut first.
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
  return { widths, flexible, overflow: Math.max(0, sum() - available) };
}

export default { GIVE_WAY, FLEX_CAP, FLEX_MIN, layColumns };
