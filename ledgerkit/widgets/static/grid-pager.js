// The pager below the table: previous and next, where the page is in the listing, the
// columns hidden as empty, the page size and the loading mark; and the page asked for
// until the kernel answers.

import { grouped } from "./grid-cells.js";
import { element } from "./grid-dom.js";
import { known } from "./grid-model.js";

const PAGE_SIZES = [10, 20, 50, 100, 200];

export function createPager(model, view, { root, table }) {
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

  // The page last asked for, until the kernel answers: keys pressed quickly in a row
  // move on from it rather than asking for the page shown again.
  let pendingPage = null;

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

  function goTo(page, where) {
    if (page < 0) return;
    pendingPage = page;
    const message = { type: "page", page };
    if (where !== undefined) message.select = where;
    model.send(message);
  }

  // Whatever the kernel answers (a page, or an error) settles the page asked for.
  function settle() {
    if (!model.get("loading")) pendingPage = null;
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

  function drawHidden() {
    const all = view.columns();
    const names = new Set(view.shown().map((column) => column.name));
    const hidden = all.filter((column) => !names.has(column.name));
    hiddenNote.hidden = !hidden.length;
    hiddenNote.textContent = hidden.length
      ? `${hidden.length} empty column${hidden.length === 1 ? "" : "s"} hidden`
      : "";
    hiddenNote.title = hidden.map((column) => column.label).join(", ");
  }

  prev.addEventListener("click", () => goTo(currentPage() - 1));
  next.addEventListener("click", () => {
    if (hasNext()) goTo(currentPage() + 1);
  });
  size.addEventListener("change", () => {
    model.send({ type: "size", page_size: Number(size.value) });
  });

  return { node: pager, drawPager, drawHidden, settle, goTo, currentPage, hasNext, pageCount };
}
