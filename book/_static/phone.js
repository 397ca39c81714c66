// Phones (issue 20): the on-page contents drawer closes after a tap on one of its entries, and a
// tapped button's tooltip does not stay on screen over the search button.
document.addEventListener("click", (event) => {
  const link = event.target.closest(".bd-sidebar-secondary a, .bd-toc a");
  if (link && window.matchMedia("(max-width: 1199.98px)").matches) {
    const toggle = document.getElementById("pst-secondary-sidebar-checkbox");
    if (toggle && toggle.checked) toggle.checked = false;
    const dialog = link.closest("dialog");
    if (dialog && dialog.open) dialog.close();
  }
  const button = event.target.closest("[data-bs-toggle='tooltip'], .primary-toggle, .secondary-toggle, .btn");
  if (button) {
    if (window.bootstrap && window.bootstrap.Tooltip) {
      const tip = window.bootstrap.Tooltip.getInstance(button);
      if (tip) tip.hide();
    }
    document.querySelectorAll(".tooltip.show").forEach((t) => t.remove());
    // a tap leaves no focus behind (its tooltip would come back); a key press keeps it, so that a
    // keyboard reader stays where they were (event.detail is 0 for a click made by a key)
    if (event.detail > 0 && typeof button.blur === "function") button.blur();
  }
});

// On a wide screen the sidebar toggle hides the sidebar, and the theme then moves the focus to the
// sidebar's first link as it would when opening a drawer: the focus stays on the toggle (issue 46).
// Listened to on the way down: the theme's handler stops the click from bubbling.
document.addEventListener(
  "click",
  (event) => {
    const toggle = event.target.closest(".primary-toggle");
    if (!toggle || !window.matchMedia("(min-width: 992px)").matches) return;
    setTimeout(() => {
      const hidden = document.getElementById("pst-primary-sidebar-checkbox");
      if (hidden && hidden.checked) toggle.focus();
    }, 150);
  },
  true
);

// Wide tables (issue 29): the leading label columns of a scrolling table (the first, or as many as
// its data-labels says) stay in view together. Each label cell is marked .hcs-label and placed at
// the summed width of the label columns before it, again whenever the table changes size (a
// dropdown opened, the screen turned); a scroll box scrolled away from its start is marked
// .hcs-scrolled, so that the last label column casts its shadow over the values scrolled under it.
(() => {
  const CARDS = window.matchMedia("(max-width: 700px)");

  // On a phone a table's two or three label columns are stacked into the first (issue 36): one
  // sticky column of at most a third of the screen, the other labels as lines under its own, so
  // the values beside it stay in view. Their cells are hidden, never removed, and come back on a
  // wider screen; the stacked lines are copies of the hidden cells' nodes, never parsed markup.
  function stack(table, on) {
    const n = Math.max(1, parseInt(table.dataset.labels || "1", 10) || 1);
    if (n < 2 || on === table.classList.contains("hcs-stacked")) return;
    table.classList.toggle("hcs-stacked", on);
    for (const row of table.rows) {
      const first = row.cells[0];
      if (!first) continue;
      first.querySelectorAll(":scope > .hcs-sublabel").forEach((e) => e.remove());
      for (let k = 1; k < n && k < row.cells.length; k++) {
        const cell = row.cells[k];
        cell.classList.toggle("hcs-stacked-away", on);
        if (!on) continue;
        const line = document.createElement("span");
        line.className = "hcs-sublabel";
        // a copy of the cell's own nodes (its text, and the <wbr> break points of a path or name)
        for (const child of cell.childNodes) line.appendChild(child.cloneNode(true));
        first.appendChild(line);
      }
    }
  }

  function place(table) {
    const always = table.classList.contains("hcs-cards-always");
    const cards = always || (table.classList.contains("hcs-cards") && CARDS.matches);
    stack(table, CARDS.matches && !cards);
    // the label column is capped at a third of the screen only where the table does not fit
    // (measured without the cap): a table that fits keeps its names whole (issue 45)
    const box = table.parentElement;
    box.classList.remove("hcs-wide");
    if (CARDS.matches && !cards) box.classList.toggle("hcs-wide", box.scrollWidth > box.clientWidth + 1);
    const declared = Math.max(1, parseInt(table.dataset.labels || "1", 10) || 1);
    const n = table.classList.contains("hcs-stacked") ? 1 : declared;
    const rows = [...table.rows];
    let left = 0;
    for (let k = 0; k < declared; k++) {
      const column = rows.map((r) => r.cells[k]).filter(Boolean);
      const sticky = !cards && k < n;
      for (const cell of column) {
        cell.classList.toggle("hcs-label", sticky);
        cell.classList.toggle("hcs-label-last", sticky && k === n - 1);
        cell.style.left = sticky ? `${left}px` : "";
      }
      const head = column[0];
      left += head ? head.getBoundingClientRect().width : 0;
    }
  }

  function shade(box) {
    box.classList.toggle("hcs-scrolled", box.scrollLeft > 1);
  }

  function init() {
    const resize = "ResizeObserver" in window ? new ResizeObserver((es) => es.forEach((e) => place(e.target))) : null;
    for (const table of document.querySelectorAll(".hcs-scroll > table.hcs-table")) {
      place(table);
      if (resize) resize.observe(table);
      const box = table.parentElement;
      box.addEventListener("scroll", () => shade(box), { passive: true });
      shade(box);
    }
    CARDS.addEventListener("change", () => document.querySelectorAll(".hcs-scroll > table.hcs-table").forEach(place));
  }

  hcsWhenReady(init);
})();

// A fold's button (issue 45): ``apply(open)`` shows or hides what the button folds and returns
// the button's words; the button starts folded and says whether it is open (aria-expanded).
function hcsFoldButton(className, apply) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  const set = (open) => {
    button.textContent = apply(open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => set(button.getAttribute("aria-expanded") !== "true"));
  set(false);
  return button;
}

function hcsWhenReady(init) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
}

// Cards folded (issue 45): a card of every width (a check of the paper's figures, tables.py's
// cards="always") shows the cells marked .hcs-keep (what it is about and its answer) and a button
// that opens the others; without this script every cell shows.
hcsWhenReady(() => {
  for (const row of document.querySelectorAll("table.hcs-cards-always > tbody > tr")) {
    const kept = row.querySelectorAll(":scope > td.hcs-keep");
    if (!kept.length || kept.length === row.cells.length) continue;
    const button = hcsFoldButton("hcs-unfold", (open) => {
      row.classList.toggle("hcs-folded", !open);
      return open ? "Hide the details" : "Show the details";
    });
    kept[kept.length - 1].appendChild(button);
  }
});

// Long tables folded (issue 45): a table of more than FOLD_AT rows shows its first SHOWN and a
// button under it and its download links that shows every row (a page stays within 30 phone
// screens, its tables whole a tap away); without this script every row shows.
hcsWhenReady(() => {
  const FOLD_AT = 12;
  const SHOWN = 8;
  for (const table of document.querySelectorAll("main table.hcs-table")) {
    const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
    if (rows.length <= FOLD_AT) continue;
    rows.slice(SHOWN).forEach((row) => row.classList.add("hcs-more"));
    const button = hcsFoldButton("hcs-more-rows", (open) => {
      table.classList.toggle("hcs-rows-folded", !open);
      return open ? `Show the first ${SHOWN} rows` : `Show all ${rows.length} rows`;
    });
    const box = table.closest(".hcs-scroll, .pst-scrollable-table-container") || table;
    const links = box.nextElementSibling;
    (links && links.matches("p.hcs-downloads") ? links : box).after(button);
  }
});
