// The example explorer (book/explorer.md): browse a corpus' examples, their sources, and every
// human set's and judge's spans with types and reasons. Reads the static JSON written by
// hotelcheckspan.book.explorer (corpora.json, <corpus>/index.json, <corpus>/chunk-NNNN.json) from
// the folder named by the container's data-base attribute; a chunk, and the file holding its
// source, are fetched when one of its examples opens. Records and spans come as lists (see the
// module's docstring) and are unpacked here into objects. Every string from the data is inserted with textContent (never as HTML), so a
// span reason holding markup shows as text. No request leaves the site.
(function () {
  "use strict";

  const PAGE_SIZE = 20;
  const HEX = /^#[0-9a-fA-F]{6}$/;

  // --- small DOM helpers (text only) ----------------------------------------------------------
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, ...children) {
    for (const c of children) if (c) parent.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return parent;
  }
  function labelled(text, control) {
    const label = el("label", "hx-field");
    add(label, el("span", "hx-field-name", text), control);
    return label;
  }
  function option(value, text) {
    const o = document.createElement("option");
    o.value = String(value);
    o.textContent = text;
    return o;
  }
  function rgba(hex, alpha) {
    if (!HEX.test(hex || "")) return "rgba(85, 85, 85, " + alpha + ")";
    const n = parseInt(hex.slice(1), 16);
    return "rgba(" + ((n >> 16) & 255) + ", " + ((n >> 8) & 255) + ", " + (n & 255) + ", " + alpha + ")";
  }
  function solid(hex) {
    return HEX.test(hex || "") ? hex : "#555555";
  }
  function fmt(x, digits) {
    return x === null || x === undefined ? "–" : Number(x).toFixed(digits);
  }
  const COUNT = new Intl.NumberFormat("en-US");
  function count(n) {
    return COUNT.format(n); // 1,200 as the book's tables write it
  }
  function weight(bytes) {
    return bytes >= 1e5 ? (bytes / 1e6).toFixed(1) + " MB" : Math.max(1, Math.round(bytes / 1e3)) + " kB";
  }
  function plural(n, one, many) {
    return count(n) + " " + (n === 1 ? one : many);
  }

  // a chunk's example as the page reads it: records and spans as objects, a span's text taken
  // from the example's text where the data leaves it out (it is text[start:end] there)
  function unpack(example, categories) {
    const text = example.text;
    const records = example.records.map(([who, recordId, annotator, impression, noErrors, spans]) => ({
      who: who,
      record_id: recordId,
      annotator: annotator,
      impression: impression,
      no_errors: noErrors,
      spans: spans.map((s) => ({
        start: s[0],
        end: s[1],
        type: typeof s[2] === "number" ? categories[s[2]] : s[2],
        reason: s[3],
        placed: s[4] === null ? null : s[4] === 1,
        text: s.length > 5 ? s[5] : text.slice(s[0], s[1]),
      })),
    }));
    return { id: example.id, text: text, records: records };
  }

  async function getJSON(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error("HTTP " + response.status + " for " + url);
    return response.json();
  }

  // --- the explorer ---------------------------------------------------------------------------
  class Explorer {
    constructor(root) {
      this.root = root;
      this.base = root.getAttribute("data-base") || "";
      this.chunks = new Map(); // "corpus/chunk" -> Promise of the chunk
      this.sources = new Map(); // "corpus/source file" -> Promise of its sources
      this.index = null;
      this.page = 0;
      this.openId = null;
      this.build();
    }

    build() {
      const r = this.root;
      while (r.firstChild) r.removeChild(r.firstChild);
      this.status = el("p", "hx-status", "Loading the explorer…");
      this.status.setAttribute("role", "status");
      this.corpusSelect = el("select", "hx-corpus");
      this.corpusLabel = el("p", "hx-corpus-label");
      this.simulated = el("p", "hx-simulated");
      this.simulated.hidden = true;

      const controls = el("div", "hx-controls");
      add(controls, labelled("Corpus", this.corpusSelect), this.corpusLabel, this.simulated);

      this.sort = el("select", "hx-sort");
      for (const [v, t] of [
        ["order", "corpus order"],
        ["votes", "most human error votes (any type)"],
        ["split", "most split human vote"],
        ["f1-low", "lowest span F1 between human sets"],
        ["f1-high", "highest span F1 between human sets"],
        ["judges", "most judges marking an error"],
        ["length", "longest text"],
      ])
        this.sort.appendChild(option(v, t));
      this.type = el("select", "hx-type");
      this.who = el("select", "hx-who");
      this.minVotes = el("input", "hx-min-votes");
      this.minVotes.type = "number";
      this.minVotes.min = "0";
      this.minVotes.step = "1";
      this.minVotes.value = "0";
      this.maxF1 = el("input", "hx-max-f1");
      this.maxF1.type = "range";
      this.maxF1.min = "0";
      this.maxF1.max = "1";
      this.maxF1.step = "0.05";
      this.maxF1.value = "1";
      this.maxF1Out = el("output", "hx-max-f1-value", "1.00 (no limit)");
      this.split = el("input", "hx-split");
      this.split.type = "checkbox";

      const filters = el("details", "hx-filters");
      filters.open = !window.matchMedia || window.matchMedia("(min-width: 700px)").matches; // closed on a phone
      add(filters, el("summary", null, "Sort and filter"));
      const grid = el("div", "hx-filter-grid");
      const f1Field = labelled("Span F1 at most", this.maxF1);
      f1Field.appendChild(this.maxF1Out);
      const splitField = el("label", "hx-field hx-check");
      const splitText = "only split votes (some human sets marked an error, some did not)";
      add(splitField, this.split, el("span", null, splitText));
      add(
        grid,
        labelled("Sort by", this.sort),
        labelled("Error type", this.type),
        labelled("Human set or judge", this.who),
        labelled("At least this many human error votes", this.minVotes),
        f1Field,
        splitField
      );
      add(
        filters,
        grid,
        el(
          "p",
          "hx-hint",
          "Error type keeps the examples where someone (the chosen set or judge, if one is chosen) " +
            "marked that type; a chosen set or judge alone keeps the examples it annotated. " +
            "Span F1 is the mean over pairs of human sets."
        )
      );
      add(controls, filters);

      this.count = el("p", "hx-count");
      this.count.setAttribute("aria-live", "polite");
      this.list = el("ol", "hx-list");
      this.pager = el("nav", "hx-pager");
      this.pager.setAttribute("aria-label", "pages of examples");
      this.browse = el("section", "hx-browse");
      add(this.browse, controls, this.count, this.list, this.pager);
      this.detail = el("section", "hx-example");
      this.detail.hidden = true;
      add(r, this.status, this.browse, this.detail);

      const refilter = () => {
        this.page = 0;
        this.renderList();
      };
      for (const c of [this.sort, this.type, this.who, this.split]) c.addEventListener("change", refilter);
      this.minVotes.addEventListener("input", refilter);
      this.maxF1.addEventListener("input", () => {
        const v = Number(this.maxF1.value);
        this.maxF1Out.textContent = v >= 1 ? "1.00 (no limit)" : v.toFixed(2);
        refilter();
      });
      this.corpusSelect.addEventListener("change", () => this.selectCorpus(this.corpusSelect.value, true));
      window.addEventListener("hashchange", () => this.fromHash());
    }

    async start() {
      try {
        this.manifest = await getJSON(this.base + "corpora.json");
      } catch (err) {
        this.fail(err);
        return;
      }
      for (const c of this.manifest.corpora) this.corpusSelect.appendChild(option(c.name, c.label));
      this.status.textContent = "";
      this.status.hidden = true;
      const state = this.hashState();
      const first = state.corpus && this.manifest.corpora.some((c) => c.name === state.corpus);
      await this.selectCorpus(first ? state.corpus : this.manifest.corpora[0].name, false);
      if (first && state.example !== null) await this.openExample(state.example, false);
    }

    fail(err) {
      this.status.hidden = false;
      this.status.classList.add("hx-error");
      if (location.protocol === "file:") {
        this.status.textContent =
          "The explorer reads its data with fetch(), which browsers block on pages opened from disk (file://). " +
          "Serve the built book instead, e.g. `python -m http.server -d _build/html` and open " +
          "http://localhost:8000/book/explorer.html.";
      } else {
        this.status.textContent = "The explorer's data could not be loaded (" + err.message + ").";
      }
    }

    hashState() {
      const params = new URLSearchParams(location.hash.replace(/^#/, ""));
      const ex = params.get("example");
      return { corpus: params.get("corpus"), example: ex !== null && /^\d+$/.test(ex) ? Number(ex) : null };
    }

    setHash(example) {
      const params = new URLSearchParams();
      params.set("corpus", this.index.name);
      if (example !== null) params.set("example", String(example));
      const hash = "#" + params.toString();
      if (location.hash !== hash) history.pushState(null, "", hash);
    }

    async fromHash() {
      const state = this.hashState();
      if (!this.manifest) return;
      if (state.corpus && state.corpus !== (this.index && this.index.name)) {
        if (!this.manifest.corpora.some((c) => c.name === state.corpus)) return;
        this.corpusSelect.value = state.corpus;
        await this.selectCorpus(state.corpus, false);
      }
      if (state.example === null) this.closeExample(false);
      else if (state.example !== this.openId) await this.openExample(state.example, false);
    }

    async selectCorpus(name, push) {
      const entry = this.manifest.corpora.find((c) => c.name === name);
      this.corpusSelect.value = name;
      try {
        this.index = await getJSON(this.base + entry.index);
      } catch (err) {
        this.fail(err);
        return;
      }
      const ix = this.index;
      const col = {};
      ix.columns.forEach((c, i) => (col[c] = i));
      this.col = col;
      this.rows = ix.rows;
      this.nCat = ix.categories.length;
      this.humans = ix.who.map((w, i) => i).filter((i) => ix.who[i].kind === "human");
      this.judges = ix.who.map((w, i) => i).filter((i) => ix.who[i].kind !== "human");
      this.corpusLabel.textContent =
        ix.label + ": " + plural(ix.rows.length, "example", "examples") + ", " +
        plural(this.humans.length, "human set", "human sets") + ", " +
        plural(this.judges.length, "LLM judge", "LLM judges") + "." +
        (entry.total_bytes
          ? " The list weighs " + weight(entry.index_bytes) + "; the examples' files, " +
            weight(entry.total_bytes - entry.index_bytes) + " in all, are fetched one at a time as examples open."
          : "");
      this.simulated.hidden = !ix.simulated;
      this.simulated.textContent = ix.simulated
        ? "Simulated data: this corpus is the seeded stand-in built from the paper's marginals, not the real " +
          "HotelCheckSpan annotations; its texts, spans and reasons are generated."
        : "";
      while (this.type.firstChild) this.type.removeChild(this.type.firstChild);
      this.type.appendChild(option("", "any type"));
      ix.categories.forEach((c, i) => this.type.appendChild(option(i, c)));
      while (this.who.firstChild) this.who.removeChild(this.who.firstChild);
      this.who.appendChild(option("", "anyone"));
      for (const [group, ids] of [
        ["human sets", this.humans],
        ["LLM judges", this.judges],
      ]) {
        if (!ids.length) continue;
        const og = document.createElement("optgroup");
        og.label = group;
        for (const i of ids) og.appendChild(option(i, ix.who[i].name));
        this.who.appendChild(og);
      }
      this.page = 0;
      this.closeExample(false);
      if (push) this.setHash(null);
      this.renderList();
    }

    // --- the list -----------------------------------------------------------------------------
    anyVotes(row) {
      return row[this.col.votes][this.nCat];
    }

    judgeMarks(row) {
      return row[this.col.marked].filter(([w]) => this.index.who[w].kind !== "human").length;
    }

    filtered() {
      const c = this.col;
      const type = this.type.value === "" ? null : Number(this.type.value);
      const who = this.who.value === "" ? null : Number(this.who.value);
      const minVotes = Math.max(0, Number(this.minVotes.value) || 0);
      const maxF1 = Number(this.maxF1.value);
      const split = this.split.checked;
      let rows = this.rows.filter((row) => {
        if (this.anyVotes(row) < minVotes) return false;
        if (maxF1 < 1 && (row[c.f1] === null || row[c.f1] > maxF1 + 1e-9)) return false;
        if (split && !(this.anyVotes(row) > 0 && this.anyVotes(row) < row[c.raters])) return false;
        if (type !== null) {
          const bit = 1 << type;
          if (!row[c.marked].some(([w, mask]) => (who === null || w === who) && mask & bit)) return false;
        } else if (who !== null && !row[c.sets].includes(who)) return false;
        return true;
      });
      const by = this.sort.value;
      const key = {
        votes: (r) => -this.anyVotes(r),
        split: (r) => (r[c.raters] ? -Math.min(this.anyVotes(r), r[c.raters] - this.anyVotes(r)) / r[c.raters] : 1),
        "f1-low": (r) => (r[c.f1] === null ? Infinity : r[c.f1]),
        "f1-high": (r) => (r[c.f1] === null ? Infinity : -r[c.f1]),
        judges: (r) => -this.judgeMarks(r),
        length: (r) => -(r[c.text_length] || 0),
      }[by];
      // examples whose text the corpus lacks (records of a text with no output file) go last, in
      // any order chosen: there is nothing to read in them, and sorted by votes they came first
      const textless = (r) => (r[c.snippet] === null ? 1 : 0);
      rows = rows
        .map((r) => [textless(r), key ? key(r) : 0, r])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2][c.id] - b[2][c.id])
        .map((x) => x[2]);
      return rows;
    }

    keyText(row) {
      const c = this.col;
      // the setup is the system that wrote the text (factgenie's setup_id), named as such: beside
      // the judges' names it read like one more judge (issue 45)
      const parts = [row[c.dataset], row[c.split], "#" + row[c.example_idx]];
      if (row[c.aspect]) parts.push(row[c.aspect]);
      parts.push("written by " + row[c.setup_id]);
      return parts.join(" · ");
    }

    renderList() {
      const rows = this.filtered();
      this.current = rows;
      const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
      this.page = Math.min(this.page, pages - 1);
      this.count.textContent = count(rows.length) + " of " + plural(this.rows.length, "example", "examples");
      while (this.list.firstChild) this.list.removeChild(this.list.firstChild);
      const c = this.col;
      const ix = this.index;
      for (const row of rows.slice(this.page * PAGE_SIZE, (this.page + 1) * PAGE_SIZE)) {
        const li = el("li", "hx-item");
        const button = el("button", "hx-open");
        button.type = "button";
        button.setAttribute("data-id", String(row[c.id]));
        add(button, el("span", "hx-key", this.keyText(row)));
        const snippet = row[c.snippet];
        const more = snippet !== null && row[c.text_length] > snippet.length ? "…" : "";
        add(button, el("span", "hx-snippet", snippet === null ? "(no annotated text in this corpus)" : snippet + more));
        const facts = el("span", "hx-facts");
        const raters = row[c.raters];
        const humans = row[c.marked].filter(([w]) => ix.who[w].kind === "human").length;
        add(
          facts,
          el("span", "hx-fact", "human error votes " + count(this.anyVotes(row)) + "/" + count(raters)),
          el(
            "span",
            "hx-fact",
            "span F1 " + fmt(row[c.f1], 2) + (row[c.pairs] ? " (" + plural(row[c.pairs], "pair", "pairs") + ")" : "")
          ),
          el("span", "hx-fact", "judges marking " + count(this.judgeMarks(row)) + "/" + count(this.judges.length))
        );
        const chips = el("span", "hx-chips");
        row[c.votes].slice(0, this.nCat).forEach((v, i) => {
          if (!v) return;
          const chip = el("span", "hx-chip", ix.categories[i] + " " + count(v));
          chip.style.backgroundColor = rgba(ix.palette[ix.categories[i]], ix.alpha);
          chip.style.borderColor = solid(ix.palette[ix.categories[i]]);
          chips.appendChild(chip);
        });
        add(button, facts, chips);
        button.title = plural(humans, "human set", "human sets") + " marked an error";
        button.addEventListener("click", () => this.openExample(row[c.id], true));
        li.appendChild(button);
        this.list.appendChild(li);
      }
      while (this.pager.firstChild) this.pager.removeChild(this.pager.firstChild);
      const prev = el("button", "hx-prev", "← previous");
      prev.type = "button";
      prev.disabled = this.page === 0;
      prev.addEventListener("click", () => {
        this.page -= 1;
        this.renderList();
      });
      const next = el("button", "hx-next", "next →");
      next.type = "button";
      next.disabled = this.page >= pages - 1;
      next.addEventListener("click", () => {
        this.page += 1;
        this.renderList();
      });
      add(this.pager, prev, el("span", "hx-page", "page " + count(this.page + 1) + " of " + count(pages)), next);
    }

    // --- one example --------------------------------------------------------------------------
    cached(cache, file) {
      const key = this.index.name + "/" + file;
      if (!cache.has(key)) {
        const p = getJSON(this.base + key);
        p.catch(() => cache.delete(key));
        cache.set(key, p);
      }
      return cache.get(key);
    }

    chunk(id) {
      return this.cached(this.chunks, this.index.chunks[Math.floor(id / this.index.chunk_size)]);
    }

    async source(number) {
      if (number === null || number === undefined) return null;
      const file = await this.cached(this.sources, this.index.sources[Math.floor(number / this.index.source_chunk)]);
      return file.sources[number % this.index.source_chunk];
    }

    closeExample(push) {
      this.openId = null;
      this.detail.hidden = true;
      this.browse.hidden = false;
      if (push) this.setHash(null);
    }

    async openExample(id, push) {
      const row = this.rows[id];
      if (!row) return;
      let chunk, source;
      try {
        [chunk, source] = await Promise.all([this.chunk(id), this.source(row[this.col.source])]);
      } catch (err) {
        this.fail(err);
        return;
      }
      const example = unpack(
        chunk.examples.find((e) => e.id === id),
        this.index.categories
      );
      example.source = source;
      this.openId = id;
      this.renderExample(row, example);
      this.browse.hidden = true;
      this.detail.hidden = false;
      if (push) this.setHash(id);
      this.detail.scrollIntoView({ block: "start" });
    }

    renderExample(row, example) {
      const d = this.detail;
      const ix = this.index;
      const c = this.col;
      while (d.firstChild) d.removeChild(d.firstChild);
      d.setAttribute("data-id", String(example.id));
      const back = el("button", "hx-back", "← back to the list");
      back.type = "button";
      back.addEventListener("click", () => {
        if (location.hash.includes("example=")) history.back();
        else this.closeExample(false);
      });
      add(d, back, el("h2", "hx-title", this.keyText(row)));
      if (ix.simulated)
        add(d, el("p", "hx-simulated", "Simulated data (the stand-in): texts, spans and reasons are generated."));

      const stats = el("p", "hx-stats");
      add(
        stats,
        "Human error votes: " + count(this.anyVotes(row)) + " of " + plural(row[c.raters], "set", "sets") + " (",
        ix.categories.map((cat, i) => cat + " " + count(row[c.votes][i])).join(", "),
        "). Span F1 between human sets: hard " + fmt(row[c.f1], 2) + ", soft " + fmt(row[c.f1_soft], 2) +
          " (mean of " + plural(row[c.pairs], "pair", "pairs") + ")."
      );
      d.appendChild(stats);

      const legend = el("ul", "hx-legend");
      legend.setAttribute("aria-label", "error types");
      for (const cat of ix.categories) {
        const item = el("li", "hx-legend-item");
        const sw = el("span", "hx-swatch");
        sw.style.backgroundColor = rgba(ix.palette[cat], ix.alpha);
        sw.style.borderBottomColor = solid(ix.palette[cat]);
        add(item, sw, el("span", null, cat));
        legend.appendChild(item);
      }
      d.appendChild(legend);

      const source = el("details", "hx-source");
      add(source, el("summary", null, "Source (the input the text was written from)"));
      const input = example.source === null ? "(no source in this corpus)" : example.source;
      // the source scrolls in its own box: a region the keyboard reaches (WCAG 2.1.1)
      const text = el("pre", "hx-source-text", input);
      text.tabIndex = 0;
      text.setAttribute("role", "region");
      text.setAttribute("aria-label", "the source");
      add(source, text);
      d.appendChild(source);

      if (example.text === null)
        d.appendChild(
          el(
            "p",
            "hx-notice",
            "This example has no annotated text in the corpus; its records' spans are listed, collapsed, with their offsets."
          )
        );

      const showHumans = example.records.filter((r) => ix.who[r.who].kind === "human");
      const showJudges = example.records.filter((r) => ix.who[r.who].kind !== "human");
      for (const [title, records] of [
        ["Human sets", showHumans],
        ["LLM judges", showJudges],
      ]) {
        if (!records.length) continue;
        const section = el("section", "hx-rows");
        // a set counts once however many records it has here (a crowd worker may annotate a text twice)
        const sets = new Set(records.map((r) => r.who)).size;
        const counted =
          sets === records.length
            ? count(sets)
            : plural(sets, "set", "sets") + ", " + plural(records.length, "record", "records");
        add(section, el("h3", null, title + " (" + counted + ")"));
        // without a text the records are lists of offsets: collapsed, so the page stays short
        let holder = section;
        if (example.text === null) {
          holder = el("details", "hx-collapsed");
          const what = "Show the " + plural(records.length, "record", "records") + " and their offsets";
          add(holder, el("summary", null, what));
          section.appendChild(holder);
        }
        for (const record of records) holder.appendChild(this.renderRecord(example.text, record));
        d.appendChild(section);
      }
    }

    renderRecord(text, record) {
      const ix = this.index;
      const who = ix.who[record.who];
      const box = el("article", "hx-row");
      box.setAttribute("data-who", String(record.who));
      box.setAttribute("data-record", String(record.record_id));
      box.setAttribute("data-kind", who.kind);
      const head = el("header", "hx-row-head");
      add(head, el("span", "hx-who", who.name));
      if (record.annotator && record.annotator !== who.name) add(head, el("span", "hx-annotator", record.annotator));
      if (record.impression !== null && record.impression !== undefined)
        add(head, el("span", "hx-badge", "impression " + record.impression + "/7"));
      if (record.no_errors === true) add(head, el("span", "hx-badge", "ticked “no errors”"));
      add(head, el("span", "hx-badge", plural(record.spans.length, "span", "spans")));
      box.appendChild(head);
      // the text is repeated only for a record that marked something (a clean record says so)
      if (text !== null && record.spans.length) box.appendChild(this.highlighted(text, record.spans));
      const list = el("ol", "hx-spans");
      record.spans.forEach((s, i) => list.appendChild(this.spanItem(s, i, text)));
      if (!record.spans.length) box.appendChild(el("p", "hx-none", "no spans marked"));
      else box.appendChild(list);
      return box;
    }

    highlighted(text, spans) {
      // elementary segments between span boundaries (clipped to the text); each covered segment
      // is a <mark> listing the spans covering it (data-spans) and coloured by the innermost one
      const n = text.length;
      const clip = spans.map((s) => [Math.max(0, Math.min(n, s.start)), Math.max(0, Math.min(n, s.end))]);
      const cuts = new Set([0, n]);
      for (const [a, b] of clip) {
        cuts.add(a);
        cuts.add(b);
      }
      const bounds = [...cuts].sort((a, b) => a - b);
      const endsAt = new Map();
      clip.forEach(([a, b], i) => {
        if (b > a) endsAt.set(b, (endsAt.get(b) || []).concat([i]));
      });
      const p = el("p", "hx-text");
      for (let k = 0; k + 1 < bounds.length; k++) {
        const a = bounds[k];
        const b = bounds[k + 1];
        const covering = [];
        clip.forEach(([s, e], i) => {
          if (s <= a && e >= b && e > s) covering.push(i);
        });
        const piece = text.slice(a, b);
        if (!covering.length) {
          p.appendChild(document.createTextNode(piece));
        } else {
          const inner = covering.reduce((x, y) => (clip[y][0] >= clip[x][0] ? y : x));
          const span = spans[inner];
          const mark = el("mark", "hx-mark" + (covering.length > 1 ? " hx-multi" : ""), piece);
          mark.setAttribute("data-spans", covering.join(" "));
          mark.setAttribute("data-type", String(span.type));
          mark.style.backgroundColor = rgba(this.index.palette[span.type], this.index.alpha);
          mark.style.borderBottomColor = solid(this.index.palette[span.type]);
          mark.title = covering
            .map((i) => spans[i].type + (spans[i].reason ? ": " + spans[i].reason : ""))
            .join("\n");
          mark.tabIndex = 0;
          mark.addEventListener("click", () => this.focusSpans(p.parentNode, covering));
          p.appendChild(mark);
        }
        for (const i of endsAt.get(b) || []) {
          const sup = el("sup", "hx-num", String(i + 1));
          sup.setAttribute("aria-hidden", "true");
          p.appendChild(sup);
        }
      }
      return p;
    }

    focusSpans(box, indices) {
      box.querySelectorAll(".hx-span.hx-focus").forEach((x) => x.classList.remove("hx-focus"));
      for (const i of indices) {
        const item = box.querySelector('.hx-span[data-span="' + i + '"]');
        if (item) item.classList.add("hx-focus");
      }
    }

    spanItem(s, i, text) {
      const ix = this.index;
      const li = el("li", "hx-span");
      li.setAttribute("data-span", String(i));
      li.value = i + 1;
      const type = el("span", "hx-type-chip", s.type);
      type.style.backgroundColor = rgba(ix.palette[s.type], ix.alpha);
      type.style.borderColor = solid(ix.palette[s.type]);
      const quote = el("q", "hx-span-text", s.text);
      const where = el("span", "hx-offsets", "[" + s.start + "–" + s.end + ")");
      add(li, type, " ", quote, " ", where);
      if (text !== null && s.placed === false) {
        const why = s.end > text.length ? "runs past the end of the text" : "text not at these offsets";
        add(li, el("span", "hx-badge hx-warn", why));
      }
      add(li, el("span", "hx-reason", s.reason ? s.reason : "no reason given"));
      return li;
    }
  }

  function boot() {
    document.querySelectorAll(".hcs-explorer").forEach((root) => {
      if (root.getAttribute("data-started")) return;
      root.setAttribute("data-started", "1");
      new Explorer(root).start();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
