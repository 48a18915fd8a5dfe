// The view of ledgerkit's LedgerGrid. It draws the page the kernel sent and turns every
// action into a message ({type: "page" | "search" | "select" | "activate" | "size" |
// "sort" | "expand" | "collapse"}); the kernel answers by setting the model's state,
// which is drawn again. Values arrive already formatted (big integers, addresses and
// bytes as text), so nothing here parses numbers. The layout is the view's own: columns
// sized to their content within the grid's width, giving way in a stated order when the
// table is wider (grid-fit.js), the rest scrolled sideways inside the grid, empty
// columns hidden, widths chosen by the reader (a header's edge dragged, or moved from
// the keyboard); a cell cut by its width shows its whole value in its tooltip.
// Hand-written, with no build step: it must run offline in every frontend, so nothing is
// loaded from another host. Each part is an ES module of its own beside this one
// (grid-*.js), imported by relative path; ledgerkit composes them, when the widget is
// defined, into the one module anywidget hands the browser (widgets/_front_end.py).

import { createBar } from "./grid-bar.js";
import { createBody } from "./grid-body.js";
import { markCut } from "./grid-cells.js";
import { element } from "./grid-dom.js";
import { createHead } from "./grid-head.js";
import { listenKeys } from "./grid-keys.js";
import { readModel } from "./grid-model.js";
import { createPager } from "./grid-pager.js";
import { createWidths } from "./grid-widths.js";

function render({ model, el }) {
  const view = readModel(model);
  const root = element("div", "lk-grid-root");
  const scroll = element("div", "lk-grid-scroll");
  const table = element("table", "lk-grid");
  table.tabIndex = 0;
  table.setAttribute("role", "grid");
  const colgroup = element("colgroup");
  const thead = element("thead");
  const tbody = element("tbody");
  table.append(colgroup, thead, tbody);
  scroll.append(table);
  const parts = { root, scroll, table, colgroup, thead, tbody };

  const bar = createBar(model, parts);
  const pager = createPager(model, view, parts);
  root.append(...bar.nodes, scroll, pager.node);
  el.append(root);

  const widths = createWidths(view, parts);
  const head = createHead(model, view, parts, widths);
  const body = createBody(model, view, parts);
  listenKeys(model, view, parts, body, pager);

  function drawTable() {
    head.drawHead();
    body.drawBody();
    pager.drawHidden();
    widths.fit(true);
  }

  // The headers alone: their columns (and the edges' values) are laid out again too.
  function drawHeadAgain() {
    head.drawHead();
    widths.fit(true);
  }

  // The rows alone (a row expanded or collapsed): the cells cut get their tooltips again.
  function drawRows() {
    body.drawBody();
    markCut(table);
  }

  // Whatever the kernel answers (a page, or an error) settles the page asked for.
  const settle = (draw) => () => {
    pager.settle();
    draw();
  };

  const markOpens = () => root.classList.toggle("lk-opens", Boolean(model.get("opens_on_click")));
  markOpens();

  const listeners = [
    ["change:opens_on_click", markOpens],
    ["change:columns", drawTable],
    ["change:rows", settle(drawTable)],
    ["change:selected_index", body.selectionChanged],
    ["change:page", settle(pager.drawPager)],
    ["change:page_size", pager.drawPager],
    ["change:total", pager.drawPager],
    ["change:more", pager.drawPager],
    ["change:loading", settle(pager.drawPager)],
    ["change:error", settle(bar.drawError)],
    ["change:title", bar.drawTitle],
    ["change:searchable", bar.drawSearch],
    ["change:query", bar.drawSearch],
    ["change:sortable", drawHeadAgain],
    ["change:sort", drawHeadAgain],
    ["change:detail", drawRows],
  ];
  for (const [name, listener] of listeners) model.on(name, listener);

  bar.drawTitle();
  bar.drawSearch();
  bar.drawError();
  drawTable();
  pager.drawPager();

  return () => {
    bar.stop();
    widths.stop();
    for (const [name, listener] of listeners) model.off(name, listener);
  };
}

export default { render };
