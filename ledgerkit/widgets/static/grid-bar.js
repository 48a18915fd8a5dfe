// Above the table: the title, the search box (reached with "/", its text sent after a
// pause or on Enter), and the line that shows the kernel's error.

import { element, isTextField } from "./grid-dom.js";

const MAX_QUERY = 200;
const SEARCH_DELAY_MS = 250;

export function createBar(model, { root, table }) {
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

  let searchTimer = null;

  function sendSearch() {
    clearTimeout(searchTimer);
    searchTimer = null;
    model.send({ type: "search", query: search.value.slice(0, MAX_QUERY) });
  }

  function focusSearch() {
    search.focus();
    search.select();
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

  return {
    nodes: [head, error],
    drawError,
    drawTitle,
    drawSearch,
    stop: () => clearTimeout(searchTimer),
  };
}
