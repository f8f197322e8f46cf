/* ArtemisKit report viewer (SPEC 21): hand-written, no library, no network.
 *
 * Reads the run data embedded in the page (gzip + base64, inflated by the
 * browser's own DecompressionStream, or plain JSON when small) and draws the
 * Runs, Causes, Units and run views. Every string from the evidence goes into
 * the page as text (textContent, never HTML). The view and its filters live in
 * the URL fragment (#runs?verdict=failed, #run/RUN_ID), so a link opens the same
 * view and a reload restores it.
 */
"use strict";
(function () {
  var VERDICTS = ["passed", "failed", "errored", "unavailable"];
  var ROW = 28;
  var MANY = 300;
  var SORTS = { "": "suite order", duration: "duration", tokens: "tokens", actions: "actions" };
  var FILTERS = [
    ["verdict", "Verdict", "all verdicts"],
    ["workflow", "Workflow", "all workflows"],
    ["case", "Case", "all cases"],
    ["target", "Target", "all targets"],
    ["cause", "Cause", "all causes"],
    ["tool", "Tool", "any tool"],
    ["fault", "Fault", "any fault"],
    ["retry", "Retry", "with or without retries"]
  ];

  var D, S, N, R, index, keys, order, selected = 0, lastRuns = "#runs";
  var state = { view: "overview", f: {}, sort: "", dir: "desc", q: "" };

  function $(id) { return document.getElementById(id); }
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      for (var key in props) {
        if (key === "text") node.textContent = props[key];
        else if (key === "class") node.className = props[key];
        else node.setAttribute(key, props[key]);
      }
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }
  function str(i) { return i < 0 ? "" : S[i]; }
  function pct(v) { return v === null || v === undefined ? "n/a" : (v * 100).toFixed(1) + "%"; }
  function link(href, text) { return el("a", { href: href, text: text }); }
  function verdictWord(v) { return el("span", { class: "verdict-" + VERDICTS[v], text: VERDICTS[v] }); }

  async function load() {
    var node = $("artemiskit-data");
    var text = node.textContent;
    if (node.dataset.encoding === "gzip") {
      var bytes;
      if (typeof Uint8Array.fromBase64 === "function") {
        bytes = Uint8Array.fromBase64(text.trim());
      } else {
        var binary = atob(text.trim());
        bytes = new Uint8Array(binary.length);
        for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      }
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      text = await new Response(stream).text();
    }
    return JSON.parse(text);
  }

  function prepare(data) {
    D = data; S = data.s; R = {};
    for (var key in data.r) {
      R[key] = key === "id" ? data.r[key] : Int32Array.from(data.r[key]);
    }
    N = R.w.length;
    index = new Map();
    S.forEach(function (s, i) { index.set(s, i); });
    keys = new Array(N);
    for (var i = 0; i < N; i++) keys[i] = R.id[i] || "w" + R.w[i] + "-" + R.n[i];
  }

  function runKey(i) { return keys[i]; }
  function findRun(key) {
    for (var i = 0; i < N; i++) if (keys[i] === key) return i;
    return -1;
  }

  /* ---- the URL fragment ---- */
  function parseHash() {
    var hash = location.hash.slice(1);
    var cut = hash.indexOf("?");
    var path = cut < 0 ? hash : hash.slice(0, cut);
    var params = new URLSearchParams(cut < 0 ? "" : hash.slice(cut + 1));
    state.f = {};
    FILTERS.forEach(function (f) { if (params.has(f[0])) state.f[f[0]] = params.get(f[0]); });
    state.sort = SORTS.hasOwnProperty(params.get("sort") || "") ? params.get("sort") || "" : "";
    state.dir = params.get("dir") === "asc" ? "asc" : "desc";
    state.q = params.get("q") || "";
    if (path === "runs") state.view = "runs";
    else if (path === "causes") state.view = "causes";
    else if (path === "units") state.view = "units";
    else if (path.indexOf("run/") === 0) { state.view = "run"; state.run = decodeURIComponent(path.slice(4)); }
    else state.view = "overview";
  }
  function runsHash() {
    var params = new URLSearchParams();
    FILTERS.forEach(function (f) { if (state.f[f[0]] !== undefined) params.set(f[0], state.f[f[0]]); });
    if (state.sort) { params.set("sort", state.sort); params.set("dir", state.dir); }
    if (state.q) params.set("q", state.q);
    var query = params.toString();
    return "#runs" + (query ? "?" + query : "");
  }

  /* ---- filters ---- */
  function matcher() {
    var f = state.f, want = {};
    want.v = f.verdict === undefined ? -1 : VERDICTS.indexOf(f.verdict);
    if (f.verdict !== undefined && want.v < 0) want.none = true;
    if (f.workflow !== undefined) {
      want.w = D.wf.indexOf(index.has(f.workflow) ? index.get(f.workflow) : -2);
      if (want.w < 0) want.none = true;
    }
    ["case", "target"].forEach(function (name) {
      if (f[name] !== undefined) {
        var found = index.has(f[name]) ? index.get(f[name]) : -2;
        if (found < 0) want.none = true;
        want[name] = found;
      }
    });
    if (f.cause !== undefined) {
      want.cause = new Uint8Array(D.cs.length);
      var any = false;
      D.cs.forEach(function (c, i) { if (S[c[0]] === f.cause) { want.cause[i] = 1; any = true; } });
      if (!any) want.none = true;
    }
    [["tool", "ts"], ["fault", "fs"]].forEach(function (pair) {
      var name = pair[0];
      if (f[name] !== undefined) {
        var id = index.has(f[name]) ? index.get(f[name]) : -2;
        want[name] = new Uint8Array(D[pair[1]].length);
        D[pair[1]].forEach(function (set, i) { if (set.indexOf(id) >= 0) want[name][i] = 1; });
      }
    });
    if (f.retry !== undefined) want.retry = f.retry === "yes" ? 1 : 0;
    return want;
  }

  function compute() {
    var want = matcher();
    var out = new Int32Array(N), m = 0;
    var q = state.q.trim().toLowerCase();
    if (!want.none) {
      for (var i = 0; i < N; i++) {
        if (want.v >= 0 && R.v[i] !== want.v) continue;
        if (want.w !== undefined && R.w[i] !== want.w) continue;
        if (want["case"] !== undefined && R.c[i] !== want["case"]) continue;
        if (want.target !== undefined && R.t[i] !== want.target) continue;
        if (want.cause && (R.y[i] < 0 || !want.cause[R.y[i]])) continue;
        if (want.tool && (R.o[i] < 0 || !want.tool[R.o[i]])) continue;
        if (want.fault && (R.f[i] < 0 || !want.fault[R.f[i]])) continue;
        if (want.retry !== undefined && (R.x[i] > 0 ? 1 : 0) !== want.retry) continue;
        if (q && keys[i].toLowerCase().indexOf(q) < 0) continue;
        out[m++] = i;
      }
    }
    order = out.slice(0, m);
    var column = { duration: R.d, tokens: R.k, actions: R.a }[state.sort];
    if (column) {
      var sign = state.dir === "asc" ? 1 : -1;
      order.sort(function (a, b) { return sign * (column[a] - column[b]) || a - b; });
    }
    selected = Math.min(selected, Math.max(0, m - 1));
  }

  function distinct(values) {
    var seen = new Set();
    for (var i = 0; i < values.length; i++) if (values[i] >= 0) seen.add(values[i]);
    return Array.from(seen).map(function (i) { return S[i]; }).sort();
  }
  function choices(name) {
    if (name === "verdict") return VERDICTS.slice();
    if (name === "workflow") return D.wf.map(str);
    if (name === "case") return distinct(R.c);
    if (name === "target") return distinct(R.t);
    if (name === "cause") {
      var texts = new Set(D.cs.map(function (c) { return S[c[0]]; }));
      return Array.from(texts).sort();
    }
    if (name === "tool" || name === "fault") {
      var found = new Set();
      D[name === "tool" ? "ts" : "fs"].forEach(function (set) { set.forEach(function (i) { found.add(S[i]); }); });
      return Array.from(found).sort();
    }
    return ["yes", "no"];
  }

  function buildFilters() {
    var box = $("run-filters");
    box.replaceChildren();
    FILTERS.forEach(function (f) {
      var name = f[0], values = choices(name), control;
      if (values.length > MANY) {
        control = el("input", { type: "text", name: name, placeholder: f[2] + " (exact)" });
      } else {
        control = el("select", { name: name }, el("option", { value: "", text: f[2] }));
        values.forEach(function (value) {
          var shown = name === "retry" ? (value === "yes" ? "with retries" : "without retries") : value;
          control.append(el("option", { value: value, text: shown }));
        });
      }
      control.id = "filter-" + name;
      control.addEventListener("change", function () {
        if (control.value === "") delete state.f[name]; else state.f[name] = control.value;
        update();
      });
      box.append(el("label", null, f[1], control));
    });
    var sort = el("select", { name: "sort", id: "sort" });
    Object.keys(SORTS).forEach(function (k) { sort.append(el("option", { value: k, text: SORTS[k] })); });
    sort.addEventListener("change", function () { state.sort = sort.value; update(); });
    var dir = el("select", { name: "dir", id: "sort-dir" },
      el("option", { value: "desc", text: "largest first" }),
      el("option", { value: "asc", text: "smallest first" }));
    dir.addEventListener("change", function () { state.dir = dir.value; update(); });
    var search = el("input", { type: "search", id: "search", name: "q", placeholder: "run id", autocomplete: "off" });
    search.addEventListener("input", function () { state.q = search.value; update(); });
    var clear = el("button", { type: "button", id: "clear-filters", text: "Clear filters" });
    clear.addEventListener("click", function () { state.f = {}; state.q = ""; state.sort = ""; update(); });
    box.append(el("label", null, "Sort by", sort), el("label", null, "Order", dir),
      el("label", null, "Search by run id", search), clear);
  }
  function syncFilters() {
    FILTERS.forEach(function (f) {
      var control = $("filter-" + f[0]);
      var value = state.f[f[0]] === undefined ? "" : state.f[f[0]];
      if (control.tagName === "SELECT" && value !== "" &&
          !Array.from(control.options).some(function (o) { return o.value === value; })) {
        control.append(el("option", { value: value, text: value + " (no run)" }));
      }
      control.value = value;
    });
    $("sort").value = state.sort;
    $("sort-dir").value = state.dir;
    if ($("search").value !== state.q) $("search").value = state.q;
  }

  function update() {
    compute();
    history.replaceState(null, "", runsHash());
    lastRuns = runsHash();
    syncFilters();
    $("runs-count").textContent = order.length + " of " + N + " runs";
    paint(true);
  }

  /* ---- the virtual run list ---- */
  function paint(reset) {
    var list = $("runlist"), spacer = $("runlist-spacer");
    if (reset) list.scrollTop = Math.min(list.scrollTop, Math.max(0, order.length * ROW - list.clientHeight));
    spacer.style.height = order.length * ROW + "px";
    var top = list.scrollTop, height = list.clientHeight || 600;
    var first = Math.max(0, Math.floor(top / ROW) - 8);
    var last = Math.min(order.length, Math.ceil((top + height) / ROW) + 8);
    var rows = [];
    for (var pos = first; pos < last; pos++) rows.push(row(pos));
    spacer.replaceChildren.apply(spacer, rows);
    list.setAttribute("aria-activedescendant", order.length ? "run-row-" + selected : "");
  }
  function row(pos) {
    var i = order[pos];
    var key = runKey(i);
    var node = el("div", { class: "runrow", role: "option", id: "run-row-" + pos,
      "aria-selected": pos === selected ? "true" : "false", "data-run": key });
    node.style.top = pos * ROW + "px";
    var shown = R.id[i] ? R.id[i].slice(0, 8) : "lost #" + R.n[i];
    node.append(
      el("span", { class: "mono" }, link("#run/" + encodeURIComponent(key), shown)),
      el("span", { text: S[D.wf[R.w[i]]] }),
      el("span", { text: R.c[i] < 0 ? "" : S[R.c[i]] }),
      el("span", { text: str(R.t[i]) }),
      el("span", { class: "num", text: String(R.n[i]) }),
      el("span", null, verdictWord(R.v[i])),
      el("span", { text: R.y[i] < 0 ? "" : S[D.cs[R.y[i]][0]] }),
      el("span", { class: "num", text: String(R.d[i]) }),
      el("span", { class: "num", text: R.k[i] < 0 ? "unmeasured" : String(R.k[i]) }),
      el("span", { class: "num", text: R.a[i] < 0 ? "" : String(R.a[i]) }));
    node.addEventListener("click", function (event) {
      if (event.target.tagName !== "A") openRun(pos);
    });
    return node;
  }
  function openRun(pos) {
    if (pos < 0 || pos >= order.length) return;
    selected = pos;
    location.hash = "#run/" + encodeURIComponent(runKey(order[pos]));
  }
  function select(pos) {
    var list = $("runlist");
    selected = Math.max(0, Math.min(order.length - 1, pos));
    var y = selected * ROW;
    if (y < list.scrollTop) list.scrollTop = y;
    else if (y + ROW > list.scrollTop + list.clientHeight) list.scrollTop = y + ROW - list.clientHeight;
    paint(false);
  }
  function keyboard(event) {
    var page = Math.max(1, Math.floor($("runlist").clientHeight / ROW) - 1);
    var moves = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: page, PageUp: -page };
    if (moves[event.key] !== undefined) select(selected + moves[event.key]);
    else if (event.key === "Home") select(0);
    else if (event.key === "End") select(order.length - 1);
    else if (event.key === "Enter") openRun(selected);
    else return;
    event.preventDefault();
  }

  /* ---- causes ---- */
  function drawCauses() {
    var groups = new Map();
    for (var i = 0; i < N; i++) {
      if (R.y[i] < 0) continue;
      var cause = D.cs[R.y[i]];
      var text = S[cause[0]];
      var group = groups.get(text);
      if (!group) groups.set(text, group = { text: text, kind: str(cause[1]), runs: 0, verdicts: [0, 0, 0, 0] });
      group.runs++;
      group.verdicts[R.v[i]]++;
    }
    var sorted = Array.from(groups.values()).sort(function (a, b) {
      return b.runs - a.runs || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
    });
    var body = $("causes-body");
    if (!sorted.length) { body.replaceChildren(el("p", { class: "note", text: "Every run passed." })); return; }
    var tbody = el("tbody");
    sorted.forEach(function (g) {
      var verdicts = [];
      g.verdicts.forEach(function (count, v) { if (count) verdicts.push(count + " " + VERDICTS[v]); });
      tbody.append(el("tr", { "data-check": "cause-group" },
        el("th", { scope: "row" }, el("code", { text: g.text })),
        el("td", { text: g.kind || "not recorded" }),
        el("td", { text: verdicts.join(", ") }),
        el("td", { class: "num", text: String(g.runs) }),
        el("td", null, link("#runs?" + new URLSearchParams({ cause: g.text }).toString(), "show " + g.runs + " runs"))));
    });
    body.replaceChildren(el("table", null,
      el("caption", { text: "Runs that did not pass, by cause" }),
      el("thead", null, el("tr", null,
        el("th", { scope: "col", text: "why" }), el("th", { scope: "col", text: "kind" }),
        el("th", { scope: "col", text: "verdicts" }), el("th", { scope: "col", class: "num", text: "runs" }),
        el("th", { scope: "col", text: "runs" }))),
      tbody));
  }

  /* ---- units ---- */
  function drawUnits() {
    var body = $("units-body");
    body.replaceChildren();
    D.wf.forEach(function (nameIndex, w) {
      var units = D.u.filter(function (u) { return u[0] === w; });
      var cases = [], targets = [], cells = new Map();
      units.forEach(function (u) {
        if (cases.indexOf(u[1]) < 0) cases.push(u[1]);
        if (targets.indexOf(u[2]) < 0) targets.push(u[2]);
        cells.set(u[1] + "/" + u[2], u);
      });
      var shownCases = cases.slice(0, 1000);
      var head = el("tr", null, el("th", { scope: "col", text: "case \\ target" }));
      targets.forEach(function (t) { head.append(el("th", { scope: "col", text: t < 0 ? "(default)" : S[t] })); });
      var tbody = el("tbody");
      shownCases.forEach(function (c) {
        var tr = el("tr", null, el("th", { scope: "row", text: c < 0 ? "(no case)" : S[c] }));
        targets.forEach(function (t) {
          var u = cells.get(c + "/" + t);
          if (!u) { tr.append(el("td", { class: "cell note", text: "–" })); return; }
          var params = new URLSearchParams({ workflow: S[nameIndex] });
          if (c >= 0) params.set("case", S[c]);
          if (t >= 0) params.set("target", S[t]);
          var words = pct(u[7]) + (u[8] === null ? "" : " [" + pct(u[8]) + "–" + pct(u[9]) + "]") +
            " " + u[3] + "/" + (u[3] + u[4]);
          var extra = (u[5] ? ", " + u[5] + " errored" : "") + (u[6] ? ", " + u[6] + " unavailable" : "");
          tr.append(el("td", { class: "cell", "data-check": "unit" }, link("#runs?" + params.toString(), words + extra)));
        });
        tbody.append(tr);
      });
      var section = el("section", { class: "unit-matrix" },
        el("h3", { text: "Workflow " + S[nameIndex] }),
        el("table", { class: "matrix" },
          el("caption", { text: "Pass rate [95% interval] passed/judged per case and target" }),
          el("thead", null, head), tbody));
      if (cases.length > shownCases.length) {
        section.append(el("p", { class: "note", text: (cases.length - shownCases.length) + " more cases: filter the Runs view by case." }));
      }
      body.append(section);
    });
  }

  /* ---- one run ---- */
  function table(caption, headers, rows) {
    var head = el("tr");
    headers.forEach(function (h) { head.append(el("th", { scope: "col", text: h })); });
    var tbody = el("tbody");
    rows.forEach(function (cells) {
      var tr = el("tr");
      cells.forEach(function (cell, n) {
        var node = el(n === 1 && headers[0] === "step" ? "th" : "td");
        if (typeof cell === "string") node.textContent = cell; else node.append(cell);
        tr.append(node);
      });
      tbody.append(tr);
    });
    return el("table", null, el("caption", { text: caption }), el("thead", null, head), tbody);
  }
  function facts(pairs) {
    var dl = el("dl", { class: "facts" });
    pairs.forEach(function (p) {
      var dd = el("dd");
      if (typeof p[1] === "string") dd.textContent = p[1]; else dd.append(p[1]);
      dl.append(el("dt", { text: p[0] }), dd);
    });
    return dl;
  }
  function gauge(used, limit) {
    if (used < 0 || limit <= 0) return el("span", { class: "note", text: "n/a" });
    var share = used / limit;
    var bar = el("span", { class: "gauge" + (share > 1 ? " over" : ""), role: "img",
      "aria-label": pct(share) + " of the limit" }, el("span"));
    bar.firstChild.style.width = Math.min(100, share * 100).toFixed(1) + "%";
    return el("span", null, bar, " " + pct(share));
  }
  function drawRun() {
    var i = findRun(state.run), body = $("run-body");
    $("run-link").href = location.hash;
    if (i < 0) {
      $("run-title").textContent = "Run";
      body.replaceChildren(el("p", { class: "note", text: "No run of this report has the id in the link." }));
      return;
    }
    var pos = order ? order.indexOf(i) : -1;
    if (pos >= 0) selected = pos;
    $("run-title").textContent = "Run " + (R.id[i] || "(lost)");
    var why = R.y[i] < 0 ? "" : S[D.cs[R.y[i]][0]];
    var parts = [el("p", null, link(lastRuns, "← back to the runs"))];
    parts.push(facts([
      ["run id", R.id[i] || "none: the run was lost"],
      ["workflow", S[D.wf[R.w[i]]]],
      ["repetition", String(R.n[i])],
      ["case", R.c[i] < 0 ? "none" : S[R.c[i]]],
      ["target", str(R.t[i])],
      ["verdict", verdictWord(R.v[i])],
      ["why", why || "–"],
      ["exit code", String(R.e[i])],
      ["duration", R.d[i] + " ms"],
      ["tokens", R.k[i] < 0 ? "unmeasured" : String(R.k[i])]
    ]));
    if (R.z[i] < 0) {
      parts.push(el("p", { class: "note", text: R.l[i] === 1
        ? "This run was lost: the executor could not say what happened to it."
        : R.l[i] === 2 ? "Its record file was not found beside suite.json." : "No record of this run was given." }));
    } else {
      var d = D.dt[R.z[i]];
      parts.push(el("h3", { text: "Timeline" }));
      if (!d[5]) parts.push(el("p", { class: "note", text: "This record predates the operation timeline: calls are counted per tool." }));
      var timeline = table("The run in order, from its record", ["step", "what", "status", "detail"],
        d[0].map(function (t, n) { return [String(n + 1), str(t[0]), str(t[1]), str(t[2])]; }));
      timeline.className = "timeline";
      parts.push(timeline);
      parts.push(el("h3", { text: "Outcomes" }));
      parts.push(el("p", null, "Task verification: " + str(d[4][0]) + " (" + str(d[4][1]) + ")" + (why ? "; why: " + why : "")));
      if (d[1].length) {
        var requirements = table("Requirements of this run", ["requirement", "kind", "status", "reason"],
          d[1].map(function (q) { return [str(q[0]), str(q[1]), str(q[2]), str(q[3])]; }));
        requirements.className = "requirements";
        parts.push(requirements);
      }
      parts.push(el("h3", { text: "Budget" }));
      var used = [R.a[i], R.q[i], R.b[i], R.k[i]];
      parts.push(table("Budget gauges", ["dimension", "used", "limit", "gauge"],
        d[2].map(function (g, n) {
          return [str(g[0]), used[n] < 0 ? "unmeasured" : String(used[n]), g[1] < 0 ? "none" : String(g[1]), gauge(used[n], g[1])];
        })));
      parts.push(el("h3", { text: "Faults, retries and recovery" }));
      parts.push(facts(d[3].map(function (f) { return [str(f[0]), str(f[1])]; })));
    }
    if (D.tx) parts = parts.concat(transcript(D.tx[String(i)]));
    body.replaceChildren.apply(body, parts);
  }
  function transcript(steps) {
    var parts = [el("h3", { text: "Transcript" }),
      el("div", { class: "banner", role: "note", text: "Sensitive data: the conversation of this run as its transcript holds it." })];
    if (!steps) { parts.push(el("p", { class: "note", text: "The transcripts folder holds no transcript of this run." })); return parts; }
    var box = el("div", { class: "transcript" });
    steps.forEach(function (s) {
      var message = el("div", { class: "message" }, el("p", null, el("strong", { text: s[0] }),
        s[3] ? el("span", { class: "verdict-failed", text: " (error)" }) : null));
      if (s[1]) message.append(el("pre", { text: s[1] }));
      s[2].forEach(function (call) {
        message.append(el("p", null, "calls ", el("code", { text: call[0] }), " with ", el("code", { text: call[1] })));
      });
      box.append(message);
    });
    parts.push(box);
    return parts;
  }

  /* ---- views ---- */
  function show() {
    parseHash();
    document.documentElement.dataset.view = state.view;
    document.querySelectorAll(".view").forEach(function (view) {
      view.hidden = view.dataset.view !== state.view;
    });
    document.querySelectorAll("#views a").forEach(function (a) {
      if (a.dataset.view === state.view) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    });
    $("run-link").hidden = state.view !== "run";
    if (state.view === "runs") {
      compute();
      lastRuns = runsHash();
      syncFilters();
      $("runs-count").textContent = order.length + " of " + N + " runs";
      paint(true);
    } else if (state.view === "causes") drawCauses();
    else if (state.view === "units") drawUnits();
    else if (state.view === "run") { if (!order) compute(); drawRun(); }
    if (state.view !== "overview") window.scrollTo(0, 0);
  }

  async function start() {
    try {
      prepare(await load());
    } catch (error) {
      document.body.dataset.ready = "failed";
      $("content").prepend(el("p", { class: "banner", text: "The run data of this page could not be read (" + error.name + "); the overview still holds the numbers." }));
      return;
    }
    $("views").hidden = false;
    buildFilters();
    var list = $("runlist");
    list.addEventListener("scroll", function () { paint(false); }, { passive: true });
    list.addEventListener("keydown", keyboard);
    window.addEventListener("hashchange", show);
    show();
    document.body.dataset.ready = "true";
    performance.mark("artemiskit-ready");
  }
  // The script runs in the page's head, before the body is parsed: a link to
  // another view hides the overview (a CSS rule on <html data-view>) before it
  // is laid out, so a deep link into 100,000 runs never pays for its charts.
  parseHash();
  document.documentElement.dataset.view = state.view;
  document.addEventListener("DOMContentLoaded", start);
})();
