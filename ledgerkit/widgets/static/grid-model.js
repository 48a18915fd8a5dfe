// What the view reads of the widget's state, the same way in every part: the columns,
// the page's rows, the row shown in full, and which columns are drawn.

export function isEmpty(value) {
  return value === null || value === undefined || value === "";
}

// Whether a count is known (a listing without a total has none).
export function known(total) {
  return total !== null && total !== undefined;
}

export function readModel(model) {
  const columns = () => model.get("columns") || [];
  const rows = () => model.get("rows") || [];
  const detail = () => model.get("detail") || {};
  const expandedIndex = () => {
    const index = detail().index;
    return typeof index === "number" ? index : -1;
  };

  // The columns drawn: those with a value on the page shown (all of them on an empty page).
  function shown() {
    const cols = columns();
    const list = rows();
    if (!list.length) return cols;
    const kept = cols.filter((column) => list.some((row) => !isEmpty(row[column.name])));
    return kept.length ? kept : cols.slice(0, 1);
  }

  return { columns, rows, detail, expandedIndex, shown };
}
