// How the columns share the grid's width: each at its content's width, and when the
// table is wider than the grid, the columns that give way, in a stated order. Pure
// arithmetic on widths in pixels, so that it can be tested without laying anything out.

// When the table is too wide, columns give way in this order, each step taken only as
// far as needed for the table to fit, the widest column of a step first, and none below
// FLEX_MIN pixels (with COPY_ROOM more beside a Move cell's copy button). A cut value
// ends in an ellipsis and is read whole in its tooltip or by expanding the row
// (grid-cells.js, markCut).
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
// ...and never below this many pixels (of text: a Move cell's copy button comes beside).
export const FLEX_MIN = 96;
export const COPY_ROOM = 26;

const FLEXIBLE = new Set(["json", "text", "move"]);

// Lower the widest of the columns at `indices` to one level (none below its floor,
// `floors[at]`) until `excess` pixels are taken; returns what could not be taken.
function levelDown(widths, floors, indices, excess) {
  let left = excess;
  let order = indices.filter((at) => widths[at] > floors[at]);
  while (left > 0 && order.length) {
    // The widest come down together to the next width below them (or to a floor).
    const top = Math.max(...order.map((at) => widths[at]));
    const widest = order.filter((at) => widths[at] === top);
    const below = Math.max(
      ...order.filter((at) => widths[at] < top).map((at) => widths[at]),
      ...widest.map((at) => floors[at]),
    );
    const step = Math.min(top - below, Math.ceil(left / widest.length));
    for (const at of widest) {
      const give = Math.min(step, widths[at] - floors[at], left);
      widths[at] -= give;
      left -= give;
    }
    order = order.filter((at) => widths[at] > floors[at]);
  }
  return left;
}

// What the columns at `indices` can give before reaching their floors.
function room(widths, floors, indices) {
  return indices.reduce((sum, at) => sum + Math.max(0, widths[at] - floors[at]), 0);
}

// The widths of the table's columns in a grid `available` pixels wide. `natural[0]` is
// the toggle column's width, `natural[i + 1]` that of `columns[i]` ({name, kind, keep})
// with nothing cut; `chosen` the widths the reader chose, by column name. Returns
// {widths, flexible (the indices whose text may be cut), overflow (pixels that still
// do not fit: the grid scrolls them)}.
export function layColumns(columns, natural, available, chosen = {}) {
  const cap = Math.max(FLEX_MIN, Math.round(available * FLEX_CAP));
  const widths = natural.slice();
  const floors = natural.map(() => FLEX_MIN);
  const flexible = [];
  const yielding = {};
  columns.forEach((column, i) => {
    const at = i + 1;
    if (chosen[column.name] !== undefined) {
      widths[at] = chosen[column.name];
      return;
    }
    if (column.keep) return;
    if (column.kind === "move") floors[at] += COPY_ROOM;
    if (FLEXIBLE.has(column.kind)) {
      widths[at] = Math.min(natural[at], Math.max(cap, floors[at]));
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
      if (excess <= 0 || (step.onlyIfItFits && room(widths, floors, indices) < excess)) continue;
      excess = levelDown(widths, floors, indices, excess);
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

export default { GIVE_WAY, FLEX_CAP, FLEX_MIN, COPY_ROOM, layColumns };
