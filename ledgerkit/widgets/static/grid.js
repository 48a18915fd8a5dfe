// The view of ledgerkit's LedgerGrid. It draws the page the kernel sent and turns every
// action into a message ({type: "page" | "search" | "select" | "activate" | "size"});
// the kernel answers by setting the model's state, which is drawn again. Values arrive
// already formatted (big integers, addresses and bytes as text), so nothing here parses
// numbers. Hand-written and self-contained: it must run offline in every frontend.

const SHORTENED = new Set(["address", "hash", "handle"]);
const NUMERIC = new Set(["int", "version"]);
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
  const thead = element("thead");
  const tbody = element("tbody");
  table.append(thead, tbody);
  scroll.append(table);

  const pager = element("div", "lk-grid-pager");
  const prev = element("button", "lk-grid-prev", "‹ Prev");
  prev.type = "button";
  const status = element("span", "lk-grid-status");
  status.setAttribute("aria-live", "polite");
  const next = element("button", "lk-grid-next", "Next ›");
  next.type = "button";
  const sizeLabel = element("label", "lk-grid-size-label", "Rows ");
  const size = element("select", "lk-grid-size");
  sizeLabel.append(size);
  const busy = element("span", "lk-grid-loading", "Loading…");
  pager.append(prev, status, next, sizeLabel, busy);

  root.append(head, error, scroll, pager);
  el.append(root);

  let selected = model.get("selected_index");
  let focusColumn = 0;
  let searchTimer = null;
  // The page last asked for, until the kernel answers: keys pressed quickly in a row
  // move on from it rather than asking for the page shown again.
  let pendingPage = null;

  const columns = () => model.get("columns") || [];
  const rows = () => model.get("rows") || [];
  const known = (total) => total !== null && total !== undefined;

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
    const tr = element("tr");
    for (const column of columns()) {
      const th = element("th", NUMERIC.has(column.kind) ? "lk-num" : "", column.label);
      th.scope = "col";
      tr.append(th);
    }
    thead.replaceChildren(tr);
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
      const shown = element("span", "lk-value", shorten(text));
      shown.title = text;
      const copy = element("button", "lk-copy", COPY_GLYPH);
      copy.type = "button";
      copy.tabIndex = -1;
      copy.title = `Copy ${text}`;
      copy.setAttribute("aria-label", `Copy ${column.label}`);
      copy.dataset.value = text;
      td.append(shown, copy);
    } else {
      td.textContent = text;
      if (text.length > 32) td.title = text;
    }
    return td;
  }

  function drawBody() {
    const cols = columns();
    const list = rows();
    selected = model.get("selected_index");
    focusColumn = Math.max(0, Math.min(focusColumn, cols.length - 1));
    if (!list.length) {
      const tr = element("tr", "lk-empty");
      const td = element("td", "", model.get("loading") ? "" : "No rows");
      td.colSpan = Math.max(cols.length, 1);
      tr.append(td);
      tbody.replaceChildren(tr);
      return;
    }
    const drawn = list.map((row, index) => {
      const tr = element("tr", "lk-row");
      tr.dataset.index = String(index);
      tr.setAttribute("aria-selected", "false");
      for (const column of cols) tr.append(drawCell(column, row[column.name]));
      return tr;
    });
    tbody.replaceChildren(...drawn);
    drawSelection(false);
  }

  function drawSelection(reveal = true) {
    let current = null;
    tbody.querySelectorAll("tr.lk-row").forEach((tr, index) => {
      const on = index === selected;
      tr.classList.toggle("lk-selected", on);
      tr.setAttribute("aria-selected", on ? "true" : "false");
      Array.from(tr.children).forEach((td, c) => {
        td.classList.toggle("lk-focus", on && c === focusColumn);
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
    if (known(total)) {
      status.textContent = `page ${page + 1} of ${pageCount()} · ${total} row${total === 1 ? "" : "s"}`;
    } else {
      status.textContent = model.get("more") ? `page ${page + 1}, more available` : `page ${page + 1}`;
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
    const column = columns()[focusColumn];
    model.send({ type: "activate", index, column: column ? column.name : "" });
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
    if (td) focusColumn = Array.prototype.indexOf.call(tr.children, td);
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
    table.focus({ preventScroll: true });
  });

  // A double-click activates: it should not also select the word under the pointer.
  tbody.addEventListener("mousedown", (event) => {
    if (event.detail > 1) event.preventDefault();
  });

  tbody.addEventListener("dblclick", (event) => {
    if (event.target.closest("button.lk-copy")) return;
    const index = rowAndColumn(event);
    if (index !== null) activate(index);
  });

  table.addEventListener("keydown", (event) => {
    if (event.altKey || event.metaKey || isTextField(event.target)) return;
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
          0,
          Math.min(focusColumn + (event.key === "ArrowLeft" ? -1 : 1), columns().length - 1),
        );
        drawSelection();
        break;
      case "Enter":
        if (selected >= 0 && selected < list.length) activate(selected);
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
    ["change:columns", () => {
      drawHead();
      drawBody();
    }],
    ["change:rows", settle(drawBody)],
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
  ];
  for (const [name, listener] of listeners) model.on(name, listener);

  drawTitle();
  drawSearch();
  drawError();
  drawHead();
  drawBody();
  drawPager();

  return () => {
    clearTimeout(searchTimer);
    for (const [name, listener] of listeners) model.off(name, listener);
  };
}

export default { render };
