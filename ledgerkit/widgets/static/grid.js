// The view of ledgerkit's LedgerGrid. It draws the page the kernel sent and turns every
// action into a message ({type: "page" | "search" | "select" | "activate" | "size" |
// "sort" | "expand" | "collapse"}); the kernel answers by setting the model's state,
// which is drawn again. Values arrive already formatted (big integers, addresses and
// bytes as text), so nothing here parses numbers. The layout is the view's own: columns
// sized to their content within the widget's width, empty ones hidden, widths chosen by
// the reader (a header's edge dragged, or moved from the keyboard).
// Hand-written and self-contained: it must run offline in every frontend.

const SHORTENED = new Set(["address", "hash", "handle"]);
const NUMERIC = new Set(["int", "version"]);
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
const MIN_CHOSEN = 32;
const MAX_CHOSEN = 2000;
// What an arrow key on a header's edge moves it by, and with Shift.
const KEY_STEP = 10;
const KEY_STEP_LARGE = 50;
const PAGE_SIZES = [10, 20, 50, 100, 200];
const MAX_QUERY = 200;
const SEARCH_DELAY_MS = 250;
// In DejaVu Sans and the other fonts notebooks fall back to, unlike most "copy" symbols.
const COPY_GLYPH = "❐";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// 0x1234…abcd: enough to tell values apart at a glance; the full value is in the title.
function shorten(text) {
  return text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text;
}

// 1234567 -> "1,234,567"; anything that is not a plain integer as it is.
function grouped(text) {
  const match = /^(-?)(\d+)$/.exec(text);
  return match ? match[1] + match[2].replace(/\B(?=(\d{3})+(?!\d))/g, ",") : text;
}

function isEmpty(value) {
  return value === null || value === undefined || value === "";
}

function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "true" : "false";
  return String(value);
}

function isTextField(target) {
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

function render({ model, el }) {
  const root = element("div", "lk-grid-root");
  const head = element("div", "lk-grid-head");
  const title = element("div", "lk-grid-title");
  const search = element("input", "lk-grid-search");
  search.type = "search";
  search.placeholder = "Search  (/)";
  search.maxLength = MAX_QUERY;
  search.setAttribute("aria-label", "Search");
  head.append(title, search);

  const error = element("div", "lk-grid-error");
  error.setAttribute("role", "alert");

  const scroll = element("div", "lk-grid-scroll");
  const table = element("table", "lk-grid");
  table.tabIndex = 0;
  table.setAttribute("role", "grid");
  const colgroup = element("colgroup");
  const thead = element("thead");
  const tbody = element("tbody");
  table.append(colgroup, thead, tbody);
  scroll.append(table);

  const pager = element("div", "lk-grid-pager");
  const prev = element("button", "lk-grid-prev", "‹ Prev");
  prev.type = "button";
  const status = element("span", "lk-grid-status");
  status.setAttribute("aria-live", "polite");
  const next = element("button", "lk-grid-next", "Next ›");
  next.type = "button";
  const hiddenNote = element("span", "lk-grid-hidden");
  const sizeLabel = element("label", "lk-grid-size-label", "Rows ");
  const size = element("select", "lk-grid-size");
  sizeLabel.append(size);
  const busy = element("span", "lk-grid-loading", "Loading…");
  pager.append(prev, status, next, hiddenNote, sizeLabel, busy);

  root.append(head, error, scroll, pager);
  el.append(root);

  let selected = model.get("selected_index");
  // The focused cell: an index into shown(), or -1 for the row's toggle.
  let focusColumn = 0;
  let searchTimer = null;
  // The page last asked for, until the kernel answers: keys pressed quickly in a row
  // move on from it rather than asking for the page shown again.
  let pendingPage = null;
  // Widths chosen by the reader (dragged or from the keyboard), by column name; kept
  // across pages.
  const chosen = {};
  let fittedWidth = -1;

  const columns = () => model.get("columns") || [];
  const rows = () => model.get("rows") || [];
  const known = (total) => total !== null && total !== undefined;
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

  function pageCount() {
    return Math.max(1, Math.ceil(model.get("total") / model.get("page_size")));
  }

  function currentPage() {
    return pendingPage === null ? model.get("page") : pendingPage;
  }

  function hasNext() {
    const total = model.get("total");
    if (!known(total)) return pendingPage === null && Boolean(model.get("more"));
    return (currentPage() + 1) * model.get("page_size") < total;
  }

  // -- drawing ---------------------------------------------------------------------------

  function drawHead() {
    const cols = shown();
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

  // A header's right edge: dragged, or focused and moved with the arrow keys, as a
  // vertical splitter is (its value the column's width in pixels, set by fit()).
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

  function copyButton(text, label) {
    const copy = element("button", "lk-copy", COPY_GLYPH);
    copy.type = "button";
    copy.tabIndex = -1;
    copy.title = text.length > 80 ? `Copy ${label}` : `Copy ${text}`;
    copy.setAttribute("aria-label", `Copy ${label}`);
    copy.dataset.value = text;
    return copy;
  }

  function drawCell(column, value) {
    const td = element("td", `lk-cell lk-kind-${column.kind}`);
    if (NUMERIC.has(column.kind)) td.classList.add("lk-num");
    if (value === null || value === undefined) {
      td.classList.add("lk-null");
      return td;
    }
    const text = cellText(value);
    if (SHORTENED.has(column.kind)) {
      const value = element("span", "lk-value", shorten(text));
      value.title = text;
      td.append(value, copyButton(text, column.label));
    } else {
      td.textContent = column.kind === "int" ? grouped(text) : text;
      if (text.length > 32) td.title = text;
    }
    return td;
  }

  function drawToggle(index) {
    const td = element("td", "lk-toggle-cell");
    const open = index === expandedIndex();
    const button = element("button", "lk-toggle", open ? "▾" : "▸");
    button.type = "button";
    button.tabIndex = -1;
    button.setAttribute("aria-expanded", open ? "true" : "false");
    button.setAttribute("aria-label", open ? "Hide the row in full" : "Show the row in full");
    button.title = open ? "Hide (Space)" : "Show the row in full (Space)";
    td.append(button);
    return td;
  }

  function drawTree(node, depth, into) {
    for (const child of node.children || []) {
      const line = element("div", "lk-node");
      line.setAttribute("role", "treeitem");
      line.setAttribute("aria-level", String(depth + 1));
      line.style.paddingLeft = `${depth * 1.5}em`;
      // Read (and copied) as text: "coin: 0x1::coin::Coin<…>", "value: u64 = 100".
      line.append(element("span", "lk-key", child.name), ":");
      if (child.type) line.append(" ", element("span", "lk-type", child.type));
      if (child.value !== null && child.value !== undefined) {
        line.append(child.type ? " = " : " ", element("span", "lk-leaf", child.value));
      }
      into.append(line);
      if (child.children && child.children.length) drawTree(child, depth + 1, into);
    }
  }

  function drawDetail(span) {
    const tr = element("tr", "lk-detail");
    const td = element("td");
    td.colSpan = span;
    const body = element("div", "lk-detail-body");
    body.setAttribute("role", "region");
    body.setAttribute("aria-label", "The row in full");
    for (const field of detail().fields || []) {
      const box = element("div", `lk-field lk-kind-${field.kind}`);
      box.dataset.name = field.name;
      const top = element("div", "lk-field-head");
      top.append(element("span", "lk-field-label", field.label));
      if (field.tree && field.tree.type) top.append(element("span", "lk-type", field.tree.type));
      top.append(copyButton(field.text, field.label));
      box.append(top);
      if (field.tree && field.tree.children && field.tree.children.length) {
        const tree = element("div", "lk-tree");
        tree.setAttribute("role", "tree");
        drawTree(field.tree, 0, tree);
        box.append(tree);
      } else {
        box.append(element("div", "lk-field-text", field.text));
      }
      body.append(box);
    }
    td.append(body);
    tr.append(td);
    return tr;
  }

  function drawBody() {
    const cols = shown();
    const list = rows();
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
    const open = expandedIndex();
    const drawn = [];
    list.forEach((row, index) => {
      const tr = element("tr", "lk-row");
      tr.dataset.index = String(index);
      tr.setAttribute("aria-selected", "false");
      tr.append(drawToggle(index));
      for (const column of cols) tr.append(drawCell(column, row[column.name]));
      drawn.push(tr);
      if (index === open) drawn.push(drawDetail(cols.length + 1));
    });
    tbody.replaceChildren(...drawn);
    drawSelection(false);
  }

  function drawTable() {
    drawHead();
    drawBody();
    drawHidden();
    fit(true);
  }

  // The headers alone: their columns (and the edges' values) are laid out again too.
  function drawHeadAgain() {
    drawHead();
    fit(true);
  }

  function drawHidden() {
    const all = columns();
    const names = new Set(shown().map((column) => column.name));
    const hidden = all.filter((column) => !names.has(column.name));
    hiddenNote.hidden = !hidden.length;
    hiddenNote.textContent = hidden.length
      ? `${hidden.length} empty column${hidden.length === 1 ? "" : "s"} hidden`
      : "";
    hiddenNote.title = hidden.map((column) => column.label).join(", ");
  }

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
    if (reveal && current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  }

  function drawSizes() {
    const current = model.get("page_size");
    const sizes = PAGE_SIZES.includes(current)
      ? PAGE_SIZES
      : [...PAGE_SIZES, current].sort((a, b) => a - b);
    size.replaceChildren(...sizes.map((n) => element("option", "", String(n))));
    size.value = String(current);
  }

  function drawPager() {
    const page = model.get("page");
    const total = model.get("total");
    const loading = Boolean(model.get("loading"));
    const at = grouped(String(page + 1));
    if (known(total)) {
      const count = `${grouped(String(total))} row${total === 1 ? "" : "s"}`;
      status.textContent = `page ${at} of ${grouped(String(pageCount()))} · ${count}`;
    } else {
      status.textContent = model.get("more") ? `page ${at}, more available` : `page ${at}`;
    }
    prev.disabled = loading || page <= 0;
    next.disabled = loading || !hasNext();
    size.disabled = loading;
    busy.hidden = !loading;
    root.classList.toggle("lk-loading", loading);
    table.setAttribute("aria-busy", loading ? "true" : "false");
    drawSizes();
  }

  function drawError() {
    const message = model.get("error");
    error.textContent = message ? `⚠ ${message}` : "";
    error.hidden = !message;
  }

  function drawTitle() {
    title.textContent = model.get("title") || "";
    title.hidden = !model.get("title");
  }

  function drawSearch() {
    search.hidden = !model.get("searchable");
    if (document.activeElement !== search) search.value = model.get("query") || "";
  }

  // -- column widths ---------------------------------------------------------------------

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
    const cols = shown();
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

  // The width a column's edge is moved to, within the bounds, from `from` (its width then).
  function bounded(width, from) {
    const low = Math.min(MIN_CHOSEN, from);
    const high = Math.max(MAX_CHOSEN, from);
    return Math.max(low, Math.min(high, Math.round(width)));
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
    choose(drag.name, drag.width + event.clientX - drag.x, drag.from);
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
    fitAgain(handle.dataset.name);
  });
  thead.addEventListener("keydown", (event) => {
    const handle = event.target.closest && event.target.closest(".lk-resize");
    if (!handle || event.altKey || event.ctrlKey || event.metaKey) return;
    const name = handle.dataset.name;
    const from = widthOf(name);
    const step = event.shiftKey ? KEY_STEP_LARGE : KEY_STEP;
    switch (event.key) {
      case "ArrowLeft":
        choose(name, from - step, from);
        break;
      case "ArrowRight":
        choose(name, from + step, from);
        break;
      case "Home":
        choose(name, Math.min(MIN_CHOSEN, from), from);
        break;
      case "End":
        choose(name, Math.max(MAX_CHOSEN, from), from);
        break;
      case "Enter":
        fitAgain(name);
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

  // -- actions ---------------------------------------------------------------------------

  function select(index) {
    const list = rows();
    if (!list.length) return;
    const target = Math.max(0, Math.min(index, list.length - 1));
    const changed = target !== selected;
    selected = target;
    drawSelection();
    if (changed) model.send({ type: "select", index: target });
  }

  function goTo(page, where) {
    if (page < 0) return;
    pendingPage = page;
    const message = { type: "page", page };
    if (where !== undefined) message.select = where;
    model.send(message);
  }

  function activate(index) {
    const column = shown()[focusColumn];
    model.send({ type: "activate", index, column: column ? column.name : "" });
  }

  function toggle(index) {
    if (index < 0 || index >= rows().length) return;
    if (index === expandedIndex()) model.send({ type: "collapse" });
    else model.send({ type: "expand", index });
  }

  function sendSearch() {
    clearTimeout(searchTimer);
    searchTimer = null;
    model.send({ type: "search", query: search.value.slice(0, MAX_QUERY) });
  }

  function focusSearch() {
    search.focus();
    search.select();
  }

  async function copyFrom(button) {
    const copied = await copyText(button.dataset.value);
    button.textContent = copied ? "✓" : "✗";
    button.classList.toggle("lk-copied", copied);
    setTimeout(() => {
      button.textContent = COPY_GLYPH;
      button.classList.remove("lk-copied");
    }, 1200);
  }

  function rowAndColumn(event) {
    const tr = event.target.closest("tr.lk-row");
    if (!tr) return null;
    const td = event.target.closest("td");
    if (td) focusColumn = Array.prototype.indexOf.call(tr.children, td) - 1;
    return Number(tr.dataset.index);
  }

  // -- events ----------------------------------------------------------------------------

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
    if (event.target.closest("button.lk-toggle")) toggle(index);
    table.focus({ preventScroll: true });
  });

  // A double-click activates: it should not also select the word under the pointer
  // (in the rows; the text of an expanded row stays selectable).
  tbody.addEventListener("mousedown", (event) => {
    if (event.detail > 1 && event.target.closest("tr.lk-row")) event.preventDefault();
  });

  tbody.addEventListener("dblclick", (event) => {
    if (event.target.closest("button.lk-copy, button.lk-toggle")) return;
    const index = rowAndColumn(event);
    if (index === null) return;
    if (model.get("activatable")) activate(index);
    else toggle(index);
  });

  table.addEventListener("keydown", (event) => {
    if (event.altKey || event.metaKey || isTextField(event.target)) return;
    // The headers' buttons (sorting) answer their own keys.
    if (event.target.closest && event.target.closest("thead")) return;
    if (event.ctrlKey && event.key !== "Home" && event.key !== "End") return;
    const list = rows();
    const page = currentPage();
    const keep = selected >= 0 ? selected : undefined;
    switch (event.key) {
      case "ArrowDown":
        if (selected < 0) select(0);
        else if (selected < list.length - 1) select(selected + 1);
        else if (hasNext()) goTo(page + 1, "first");
        break;
      case "ArrowUp":
        if (selected < 0) select(0);
        else if (selected > 0) select(selected - 1);
        else if (page > 0) goTo(page - 1, "last");
        break;
      case "PageDown":
        if (hasNext()) goTo(page + 1, keep);
        break;
      case "PageUp":
        if (page > 0) goTo(page - 1, keep);
        break;
      case "Home":
        if (event.ctrlKey && page > 0) goTo(0, "first");
        else select(0);
        break;
      case "End":
        if (event.ctrlKey && known(model.get("total")) && page < pageCount() - 1) {
          goTo(pageCount() - 1, "last");
        } else {
          select(list.length - 1);
        }
        break;
      case "ArrowLeft":
      case "ArrowRight":
        focusColumn = Math.max(
          -1,
          Math.min(focusColumn + (event.key === "ArrowLeft" ? -1 : 1), shown().length - 1),
        );
        drawSelection();
        break;
      case "Enter":
        if (selected < 0 || selected >= list.length) break;
        if (model.get("activatable") && focusColumn >= 0) activate(selected);
        else toggle(selected);
        break;
      case " ":
        if (selected >= 0 && selected < list.length) toggle(selected);
        break;
      case "Escape":
        if (expandedIndex() < 0) return;
        model.send({ type: "collapse" });
        break;
      default:
        return;
    }
    // Handled here: keep the notebook from treating the key as one of its shortcuts.
    event.preventDefault();
    event.stopPropagation();
  });

  root.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!model.get("searchable") || isTextField(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
    focusSearch();
  });

  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(sendSearch, SEARCH_DELAY_MS);
  });

  search.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      sendSearch();
    } else if (event.key === "Escape" || event.key === "ArrowDown") {
      event.preventDefault();
      table.focus();
    }
    // Typing in the box must not reach the notebook's command-mode shortcuts.
    event.stopPropagation();
  });

  prev.addEventListener("click", () => goTo(currentPage() - 1));
  next.addEventListener("click", () => {
    if (hasNext()) goTo(currentPage() + 1);
  });
  size.addEventListener("change", () => {
    model.send({ type: "size", page_size: Number(size.value) });
  });

  // Whatever the kernel answers (a page, or an error) settles the page asked for.
  const settle = (draw) => () => {
    if (!model.get("loading")) pendingPage = null;
    draw();
  };

  const listeners = [
    ["change:columns", drawTable],
    ["change:rows", settle(drawTable)],
    ["change:selected_index", () => {
      selected = model.get("selected_index");
      drawSelection();
    }],
    ["change:page", settle(drawPager)],
    ["change:page_size", drawPager],
    ["change:total", drawPager],
    ["change:more", drawPager],
    ["change:loading", settle(drawPager)],
    ["change:error", settle(drawError)],
    ["change:title", drawTitle],
    ["change:searchable", drawSearch],
    ["change:query", drawSearch],
    ["change:sortable", drawHeadAgain],
    ["change:sort", drawHeadAgain],
    ["change:detail", drawBody],
  ];
  for (const [name, listener] of listeners) model.on(name, listener);

  drawTitle();
  drawSearch();
  drawError();
  drawTable();
  drawPager();

  return () => {
    clearTimeout(searchTimer);
    if (resized) resized.disconnect();
    for (const [name, listener] of listeners) model.off(name, listener);
  };
}

export default { render };
