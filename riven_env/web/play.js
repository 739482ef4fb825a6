/* RIVEN Lab live play: the page of `riven serve` (docs/play.md).
 *
 * The server holds the game (riven_env/web/session.py); this script only draws what the JSON
 * API sends and posts the person's choices. The board is the replay's SVG (table, terrain,
 * objectives); the models are drawn here, in the replay's classes (replay.css).
 * Keys: 1-9 pick the n-th shown decision, u undoes, n lets the opponent make one decision.
 * The legal destinations and targets of the person's decisions are drawn on the board
 * (GET .../previews) and clickable; with suggestions on, the agent's top three sit beside
 * the buttons (GET .../suggestions). Hot-seat (opponent "human"): both sides decide here.
 * For automation: <pre id="page-state"> holds the last state's summary as JSON and
 * window.rivenPlay offers state(), busy() and lastSave().
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var PIP_RADIUS = 0.11, PIP_SPACING = 0.3;
  var game = null;       /* {id, board, state} */
  var cursor = 0;        /* events received into the text log */
  var busy = false;
  var filter = null;     /* model id whose decisions are shown, or null */
  var stepTimer = null;
  var lastSave = null;
  var views = {};
  var options = {};
  var previews = { at: -1, items: [] };     /* what is drawn on the board, for decision `at` */
  var suggestions = { at: -1, top: [] };
  var recorded = null;

  function $(id) { return document.getElementById(id); }
  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function fmt(v) { return String(Math.round(v * 1000) / 1000); }
  function showError(text) { $("errors").textContent = text || ""; }

  function api(method, path, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init).then(function (r) {
      return r.json().catch(function () { return { error: "HTTP " + r.status }; }).then(function (data) {
        if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
        return data;
      });
    });
  }

  /* ---------- set-up ---------- */
  function loadOptions() {
    api("GET", "/api/options").then(function (o) {
      options = o;
      var select = $("mission");
      o.missions.forEach(function (m) {
        var opt = document.createElement("option");
        opt.value = m.name; opt.textContent = m.name + " (" + m.title + ")";
        if (m.name === "duel-1v1") opt.selected = true;
        select.appendChild(opt);
      });
      o.agents.forEach(function (a) {
        var opt = document.createElement("option");
        opt.value = a.spec.replace(/\[.*\]/, ""); opt.textContent = a.about;
        $("agent-specs").appendChild(opt);
      });
      var hot = document.createElement("option");
      hot.value = "human"; hot.textContent = "hot-seat: a second person plays the other side";
      $("agent-specs").appendChild(hot);
      var query = new URLSearchParams(location.search);
      ["mission", "human", "opponent", "engine", "seed", "speed", "suggest"].forEach(function (k) {
        if (query.has(k)) $(k).value = query.get(k);
      });
      if (query.has("game")) loadGame(query.get("game"));
      else if (query.get("start") === "1") startGame();
    }).catch(function (e) { showError(e.message); });
  }

  /* A game the server holds already (riven play --blue human, or a reload of the page). */
  function loadGame(id) {
    if (!/^[0-9a-f]{32}$/.test(id)) { showError("game=" + id + ": expected a game id"); return; }
    Promise.all([api("GET", "/api/games/" + id + "/board"), api("GET", "/api/games/" + id)])
      .then(function (parts) { openGame({ id: id, board: parts[0], state: parts[1] }); })
      .catch(function (e) { showError(e.message); });
  }

  function readFile(input) {
    return new Promise(function (resolve, reject) {
      var file = input.files && input.files[0];
      if (!file) { resolve(null); return; }
      var reader = new FileReader();
      reader.onload = function () { resolve(String(reader.result)); };
      reader.onerror = function () { reject(new Error("cannot read " + file.name)); };
      reader.readAsText(file);
    });
  }

  function startGame() {
    showError("");
    readFile($("mission-file")).then(function (text) {
      var body = {
        human: $("human").value, opponent: $("opponent").value.trim() || "oracle",
        engine: $("engine").value, seed: parseInt($("seed").value || "0", 10)
      };
      if ($("suggest").value.trim()) body.suggest = $("suggest").value.trim();
      if (text !== null) body.scenario_text = text; else body.scenario = $("mission").value;
      return api("POST", "/api/games", body);
    }).then(openGame).catch(function (e) { showError(e.message); });
  }

  function resumeGame() {
    readFile($("resume-file")).then(function (text) {
      if (text === null) return;
      var saved;
      try { saved = JSON.parse(text); } catch (e) { throw new Error("the save is not JSON: " + e.message); }
      return api("POST", "/api/games/resume", saved).then(openGame);
    }).catch(function (e) { showError(e.message); });
  }

  /* ---------- the board ---------- */
  function openGame(data) {
    game = data; cursor = 0; filter = null; views = {};
    previews = { at: -1, items: [] }; suggestions = { at: -1, top: [] }; recorded = null;
    $("log").innerHTML = "";
    $("board-holder").innerHTML = data.board.svg;
    $("legend-holder").innerHTML = data.board.legend;
    $("game").hidden = false;
    var s = data.state;
    $("title").textContent = s.title;
    $("subtitle").textContent = (s.hotseat ? "Hot-seat: two people play " + sideName("blue") +
      " (blue) and " + sideName("red") + " (red) at this screen" :
      "You play " + sideName(s.human) + " (" + s.human + ") against " + s.opponent) +
      (s.suggest ? " · " + s.suggest + " suggests moves" : "") +
      " · mission " + s.scenario + " · seed " + s.seed + " · engine " + s.engine;
    $("opponent-box").hidden = !!s.hotseat;
    $("suggestions").hidden = !s.suggest;
    $("export-log").href = "/api/games/" + s.id + "/log.jsonl";
    $("export-replay").href = "/api/games/" + s.id + "/replay.html";
    var layer = document.getElementById("models");
    data.board.models.forEach(function (m) { views[m.id] = drawModel(layer, m); });
    el("g", { id: "previews" }, layer.ownerSVGElement);
    history.replaceState(null, "", "?game=" + s.id);
    render(s);
  }

  function sideColour(side) { var s = game.board.sides[side]; return s ? s.colour : "#777"; }
  function sideName(side) { var s = game && game.board.sides[side]; return s ? s.name : side; }
  function shortLabel(id) { var t = String(id).split("-").pop(); return t.slice(0, 3); }

  function drawModel(layer, m) {
    var r = m.base / 2;
    var g = el("g", { "class": "model", "data-model": m.id, "data-side": m.side, tabindex: "-1" }, layer);
    var title = el("title", {}, g);
    var ring = el("circle", { "class": "ring", r: fmt(r + 0.18) }, g);
    var base = el("circle", { "class": "base", r: fmt(r), style: "fill:" + sideColour(m.side) }, g);
    var marks = el("g", { "class": "marks" }, g);
    var label = el("text", { "class": "label", x: 0, y: 0 }, marks);
    label.textContent = shortLabel(m.id);
    var pips = [];
    for (var k = 0; k < Math.max(m.wounds, 0); k++) {
      pips.push(el("circle", {
        "class": "pip", r: PIP_RADIUS, cy: fmt(r + PIP_RADIUS + 0.06),
        cx: fmt((k - (m.wounds - 1) / 2) * PIP_SPACING)
      }, marks));
    }
    var badge = el("text", { "class": "badge-text", y: fmt(-(r + 0.3)), "text-anchor": "middle", "font-size": "0.4" }, marks);
    g.addEventListener("click", function () { pickModel(m.id); });
    return { group: g, base: base, ring: ring, marks: marks, pips: pips, title: title, badge: badge, info: m };
  }

  function placeModels(s) {
    var h = game.board.height;
    s.models.forEach(function (ms) {
      var v = views[ms.id]; if (!v) return;
      var sx = fmt(ms.x), sy = fmt(h - ms.y);
      v.base.setAttribute("cx", sx); v.base.setAttribute("cy", sy);
      v.ring.setAttribute("cx", sx); v.ring.setAttribute("cy", sy);
      v.marks.setAttribute("transform", "translate(" + sx + " " + sy + ")");
      v.group.setAttribute("data-x", fmt(ms.x)); v.group.setAttribute("data-y", fmt(ms.y));
      v.pips.forEach(function (p, k) { p.setAttribute("class", k < ms.wounds ? "pip" : "pip lost"); });
      var cls = "model";
      if (ms.down) cls += " down";
      if (ms.stable) cls += " stable";
      if (ms.removed) cls += " removed";
      if (s.active === ms.id) cls += " active";
      v.group.setAttribute("class", cls);
      var marks = ms.conditions.slice();
      if (ms.down) marks.push(ms.stable ? "down (stable)" : "down");
      v.badge.textContent = marks.map(function (c) { return String(c).slice(0, 3); }).join(" ");
      var info = v.info;
      v.title.textContent = ms.id + " (" + info.name + "): wounds " + ms.wounds + "/" + info.wounds +
        ", Mettle " + info.mettle + "+, Might " + info.might + ", Agility " + info.agility +
        ", Strain " + ms.strain + "/" + info.strain_max + (marks.length ? ", " + marks.join(", ") : "") +
        (ms.removed ? " (" + ms.removed + ")" : "");
    });
  }

  /* ---------- the panel ---------- */
  function render(s) {
    game.state = s;
    placeModels(s);
    $("st-round").textContent = s.round + " of " + s.round_limit;
    $("st-turn").innerHTML = "";
    var chip = document.createElement("span");
    chip.className = "side-chip";
    if (s.over) {
      $("st-turn").textContent = "game over: " + s.result_text;
    } else {
      chip.style.background = sideColour(s.to_play);
      $("st-turn").appendChild(chip);
      $("st-turn").appendChild(document.createTextNode(
        sideName(s.to_play) + (s.hotseat ? "" : s.your_turn ? " (you)" : " (the opponent)") +
        ", " + s.phase + " phase"));
    }
    $("decisions-heading").textContent = s.hotseat && !s.over ? sideName(s.to_play) + "'s decisions" : "Your decisions";
    if (s.recorded) recorded = s.recorded;
    $("record").disabled = !s.over || !options.results_db || !!recorded;
    $("record").title = options.results_db ? "Store this game in " + options.results_db :
      "this server stores no results (start it with --db FILE)";
    $("record-result").textContent = recorded ? "Stored as run " + recorded.run_id + " in " + recorded.db : "";
    $("st-points").textContent = Object.keys(s.points).map(function (k) { return sideName(k) + " " + s.points[k]; }).join(", ");
    $("st-momentum").textContent = Object.keys(s.momentum).map(function (k) { return k + " " + s.momentum[k]; }).join(", ");
    renderLog(s);
    renderDecisions(s);
    if (s.explanation && !s.your_turn) $("explanation").textContent = s.explanation.explanation;
    $("undo").disabled = !s.undo.allowed;
    $("undo").title = s.undo.reason;
    $("undo-reason").textContent = s.undo.allowed ? "" : "Undo: " + s.undo.reason;
    $("step").disabled = s.over || s.your_turn;
    $("page-state").textContent = JSON.stringify({
      id: s.id, decisions: s.decisions, events_total: s.events_total, to_play: s.to_play,
      your_turn: s.your_turn, over: s.over, result: s.result_text, legal: s.legal.length,
      log: $("log").children.length, previews_at: previews.at, previews: previews.items.length,
      suggestions_at: suggestions.at, suggested: suggestions.top.map(function (t) { return t.index; }),
      recorded: recorded ? recorded.run_id : null,
      models: s.models.map(function (m) { return [m.id, m.x, m.y, m.wounds, m.removed]; })
    });
    drawPreviews(s);
    if (s.your_turn) { loadPreviews(s); if (s.suggest) loadSuggestions(s); }
    scheduleOpponent(s);
  }

  /* ---------- destinations and targets on the board ---------- */
  function legalOf(index) {
    var s = game.state;
    for (var k = 0; k < s.legal.length; k++) if (s.legal[k].index === index) return s.legal[k];
    return null;
  }

  /* GET /api/games/<id>/<what> for the decision `s` is at; `use(at, data)` takes the answer
     unless the game has moved on since (then it is dropped). */
  function loadForDecision(s, what, use) {
    var at = s.decisions, id = s.id;
    api("GET", "/api/games/" + id + "/" + what).then(function (data) {
      if (!game || game.state.id !== id || game.state.decisions !== at || data.at !== at) return;
      use(at, data);
      refreshPageState();
    }).catch(function (e) { showError(e.message); });
  }

  function loadPreviews(s) {
    loadForDecision(s, "previews", function (at, data) {
      previews = { at: at, items: data.previews };
      drawPreviews(game.state);
    });
  }

  function refreshPageState() {
    var box = $("page-state"), data;
    try { data = JSON.parse(box.textContent); } catch (e) { return; }
    data.previews_at = previews.at; data.previews = previews.items.length;
    data.suggestions_at = suggestions.at;
    data.suggested = suggestions.top.map(function (t) { return t.index; });
    data.recorded = recorded ? recorded.run_id : null;
    box.textContent = JSON.stringify(data);
  }

  function pt(p) { return fmt(p[0]) + "," + fmt(game.board.height - p[1]); }
  function pct(v) { return Math.round(100 * v) + "%"; }

  /* The chance of each result, short, for the label beside a target. */
  function shortOdds(d) {
    if (!d || !d.odds) return "";
    var o = d.odds.odds;
    if (d.odds.kind === "shot") return "hit " + pct((o.hit || 0) + (o.critical || 0));
    if (d.odds.kind === "melee") return "wound " + pct((o.wound_dealt || 0) + (o.critical_dealt || 0));
    return "";
  }

  function drawPreviews(s) {
    var layer = document.getElementById("previews");
    if (!layer) return;
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    if (!s.your_turn || previews.at !== s.decisions) return;
    var shown = {};
    shownDecisions(s).forEach(function (d) { shown[d.index] = true; });
    var ends = {};
    previews.items.forEach(function (p) {
      if (!shown[p.index]) return;
      var d = legalOf(p.index); if (!d) return;
      var g = el("g", { "class": "preview kind-" + d.kind, "data-index": p.index }, layer);
      if (p.path && p.path.length > 1) {
        el("polyline", { "class": "dest-path", points: p.path.map(pt).join(" ") }, g);
      }
      if ((d.kind === "shoot" || d.kind === "melee") && p.target_at) {
        var cover = p.cover || "none";
        el("line", {
          "class": "sight cover-" + cover + (p.visible ? "" : " blocked"),
          x1: fmt(p.from[0]), y1: fmt(game.board.height - p.from[1]),
          x2: fmt(p.target_at[0]), y2: fmt(game.board.height - p.target_at[1])
        }, g);
        var dx = p.from[0] - p.target_at[0], dy = p.from[1] - p.target_at[1];
        var len = Math.sqrt(dx * dx + dy * dy) || 1;
        var info = views[p.target] ? views[p.target].info : { base: 1 };
        var off = Math.min(len / 2, info.base / 2 + 0.45);
        var at = [p.target_at[0] + dx / len * off, p.target_at[1] + dy / len * off];
        marker(g, d, at, "aim", (d.kind === "shoot" ? (cover === "none" ? "no cover" : cover + " cover") +
          (p.visible ? "" : ", no line of sight") : "melee") + " · " + shortOdds(d));
        return;
      }
      if (p.to) {
        var key = fmt(p.to[0]) + "," + fmt(p.to[1]) + "," + d.kind;
        if (ends[key]) {   /* the same end point: one marker, every choice in its title */
          ends[key].title.textContent += "\n" + d.label;
          return;
        }
        var text = d.kind === "charge" ? "charge " + (p.target || "") + " · " + shortOdds(d) :
          d.kind === "interact" ? "interact" : "";
        ends[key] = marker(g, d, p.to, d.kind === "charge" ? "dest charge" : "dest", text);
      }
    });
  }

  function marker(g, d, at, cls, text) {
    var x = fmt(at[0]), y = fmt(game.board.height - at[1]);
    var spot = el("circle", { "class": cls, cx: x, cy: y, r: "0.32", "data-index": d.index, tabindex: "-1" }, g);
    var title = el("title", {}, spot);
    title.textContent = d.label + (d.odds ? "\n" + d.odds.text : "");
    if (text) {
      var label = el("text", { "class": "preview-label", x: fmt(at[0] + 0.45), y: y, "font-size": "0.42" }, g);
      label.textContent = text;
    }
    spot.addEventListener("click", function (ev) { ev.stopPropagation(); decide(d.index); });
    spot.addEventListener("mouseenter", function () { highlight(d.index); showOdds(d); });
    spot.addEventListener("mouseleave", function () { highlight(null); });
    return { spot: spot, title: title };
  }

  function highlight(index) {
    var layer = document.getElementById("previews");
    if (layer) Array.prototype.forEach.call(layer.children, function (g) {
      g.classList.toggle("hot", Number(g.getAttribute("data-index")) === index);
    });
    Array.prototype.forEach.call($("decisions").querySelectorAll("button"), function (b) {
      b.classList.toggle("hot", Number(b.dataset.index) === index);
    });
  }

  /* ---------- suggestions ---------- */
  function loadSuggestions(s) {
    $("suggestion-list").innerHTML = '<li class="muted">' + s.suggest + " is thinking...</li>";
    loadForDecision(s, "suggestions", function (at, data) {
      suggestions = { at: at, top: data.top };
      renderSuggestions(game.state);
    });
  }

  function renderSuggestions(s) {
    var list = $("suggestion-list");
    list.innerHTML = "";
    if (suggestions.at !== s.decisions) return;
    suggestions.top.forEach(function (t, k) {
      var li = document.createElement("li");
      var b = document.createElement("button");
      b.type = "button"; b.dataset.index = t.index;
      b.textContent = (k + 1) + ". " + t.label + (t.visits === null ? " (by rule)" :
        " (" + t.visits + " simulations, value " + t.value.toFixed(2) + ")");
      b.addEventListener("click", function () { decide(t.index); });
      b.addEventListener("mouseenter", function () { highlight(t.index); var d = legalOf(t.index); if (d) showOdds(d); });
      b.addEventListener("focus", function () { highlight(t.index); var d = legalOf(t.index); if (d) showOdds(d); });
      li.appendChild(b); list.appendChild(li);
    });
    Array.prototype.forEach.call($("decisions").querySelectorAll("button"), function (b) {
      var rank = -1;
      suggestions.top.forEach(function (t, k) { if (t.index === Number(b.dataset.index)) rank = k; });
      var chip = b.querySelector(".suggest-chip");
      if (chip) chip.remove();
      if (rank >= 0) {
        chip = document.createElement("span"); chip.className = "suggest-chip";
        chip.textContent = "suggested #" + (rank + 1);
        b.appendChild(chip);
      }
    });
  }

  function record() {
    if (!game || !game.state.over) return;
    api("POST", "/api/games/" + game.state.id + "/record").then(function (data) {
      recorded = data;
      $("record").disabled = true;
      $("record-result").textContent = "Stored as run " + data.run_id + " in " + data.db;
      refreshPageState();
    }).catch(function (e) { showError(e.message); });
  }

  function renderLog(s) {
    var log = $("log");
    if (s.events_total < cursor) {   /* an undo took events back */
      while (log.lastChild && Number(log.lastChild.dataset.seq) >= s.events_total) log.removeChild(log.lastChild);
      cursor = s.events_total;
    }
    s.log.forEach(function (e) {
      if (e.seq < cursor) return;
      var li = document.createElement("li");
      li.className = "kind-" + e.type; li.dataset.seq = e.seq; li.textContent = e.text;
      log.appendChild(li);
    });
    cursor = Math.max(cursor, s.events_from + s.log.length);
    log.scrollTop = log.scrollHeight;
  }

  function shownDecisions(s) {
    if (!filter) return s.legal;
    var some = s.legal.filter(function (d) { return d.model === filter || d.target === filter; });
    return some.length ? some : s.legal;
  }

  function renderDecisions(s) {
    var list = $("decisions");
    list.innerHTML = "";
    list.className = "";
    var shown = shownDecisions(s);
    $("filter").hidden = !filter || shown === s.legal;
    $("filter-name").textContent = filter || "";
    shown.forEach(function (d, k) {
      var li = document.createElement("li");
      var b = document.createElement("button");
      b.type = "button"; b.dataset.index = d.index; b.dataset.kind = d.kind;
      if (d.model) b.dataset.model = d.model;
      if (d.target) b.dataset.target = d.target;
      var key = document.createElement("span"); key.className = "key";
      key.textContent = k < 9 ? String(k + 1) : "";
      b.appendChild(key);
      b.appendChild(document.createTextNode(" " + d.label));
      if (d.odds && d.odds.kind === "activation") {
        var chipText = document.createElement("span"); chipText.className = "odds-chip";
        chipText.textContent = d.odds.odds.expected_actions.toFixed(2) + " actions, pass " +
          Math.round(100 * d.odds.odds.p_turn_passes) + "%";
        b.appendChild(chipText);
      }
      b.addEventListener("click", function () { decide(d.index); });
      b.addEventListener("focus", function () { showOdds(d); highlight(d.index); });
      b.addEventListener("mouseenter", function () { showOdds(d); highlight(d.index); });
      li.appendChild(b); list.appendChild(li);
    });
    if (!s.your_turn) {
      var li = document.createElement("li"); li.className = "muted";
      li.textContent = s.over ? "The game is over: " + s.result_text + ". Export the log or the replay." :
        "The opponent is playing.";
      list.appendChild(li);
    }
    if (s.suggest) renderSuggestions(s);
    /* Models the shown decisions act with (choosable) or on (targetable). */
    Object.keys(views).forEach(function (id) {
      var g = views[id].group;
      g.classList.toggle("choosable", s.legal.some(function (d) { return d.model === id; }));
      g.classList.toggle("targetable", s.legal.some(function (d) { return d.target === id; }));
      g.classList.toggle("selected", filter === id);
    });
    $("odds").innerHTML = '<span class="muted">Odds of the focused choice appear here.</span>';
  }

  function showOdds(d) {
    var box = $("odds");
    box.textContent = "";
    var head = document.createElement("strong"); head.textContent = d.label;
    box.appendChild(head);
    var p = document.createElement("div");
    p.textContent = d.odds ? d.odds.text : "No dice odds for this choice.";
    box.appendChild(p);
    var where = previewOf(d.index);
    if (where) {
      var w = document.createElement("div"); w.className = "where";
      var parts = [];
      if (where.target_at) parts.push((where.visible ? "line of sight clear" : "no line of sight") +
        " to " + where.target + ", " + (where.cover === "none" ? "no cover" : where.cover + " cover"));
      if (where.to) parts.push("ends at (" + where.to[0].toFixed(1) + ", " + where.to[1].toFixed(1) + ")" +
        (where.path ? ", " + pathLength(where.path).toFixed(1) + " in" : ""));
      w.textContent = "On the board: " + parts.join("; ") + ".";
      box.appendChild(w);
    }
  }

  function previewOf(index) {
    if (!game || previews.at !== game.state.decisions) return null;
    for (var k = 0; k < previews.items.length; k++) if (previews.items[k].index === index) return previews.items[k];
    return null;
  }

  function pathLength(path) {
    var total = 0;
    for (var k = 1; k < path.length; k++) total += Math.hypot(path[k][0] - path[k - 1][0], path[k][1] - path[k - 1][1]);
    return total;
  }

  function pickModel(id) {
    if (!game || !game.state.your_turn) return;
    filter = filter === id ? null : id;
    renderDecisions(game.state);
    drawPreviews(game.state);
    var first = $("decisions").querySelector("button");
    if (first) first.focus();
  }

  /* ---------- requests ---------- */
  function guard(promise) {
    busy = true; $("decisions").className = "waiting";
    return promise.then(function (data) { busy = false; showError(""); return data; },
      function (e) { busy = false; $("decisions").className = ""; showError(e.message); throw e; });
  }

  function decide(index) {
    if (busy || !game) return;
    filter = null;
    guard(api("POST", "/api/games/" + game.state.id + "/decide", { index: index, at: game.state.decisions }))
      .then(function (data) { render(data.state); }).catch(function () {});
  }

  function stepOpponent() {
    if (busy || !game || game.state.over || game.state.your_turn) return;
    guard(api("POST", "/api/games/" + game.state.id + "/step", {})).then(function (data) {
      var st = data.steps[0];
      $("explanation").textContent = st.explanation ? st.explanation.explanation : "The opponent " + st.decision + ".";
      render(data.state);
    }).catch(function () {});
  }

  function scheduleOpponent(s) {
    if (stepTimer) { clearTimeout(stepTimer); stepTimer = null; }
    var delay = parseInt($("speed").value, 10);
    if (!s.over && !s.your_turn && delay > 0) stepTimer = setTimeout(stepOpponent, delay);
  }

  function undo() {
    if (busy || !game) return;
    guard(api("POST", "/api/games/" + game.state.id + "/undo")).then(function (data) {
      $("explanation").textContent = "Undone: " + data.undone + ".";
      render(data.state);
    }).catch(function () {});
  }

  function save() {
    if (!game) return;
    api("GET", "/api/games/" + game.state.id + "/save").then(function (data) {
      lastSave = data;
      var url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
      var a = document.createElement("a");
      a.href = url; a.download = "riven-" + game.state.id.slice(0, 8) + "-save.json";
      document.body.appendChild(a); a.click(); a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    }).catch(function (e) { showError(e.message); });
  }

  /* ---------- wiring ---------- */
  $("new-game").addEventListener("submit", function (ev) { ev.preventDefault(); startGame(); });
  $("resume-file").addEventListener("change", resumeGame);
  $("step").addEventListener("click", stepOpponent);
  $("undo").addEventListener("click", undo);
  $("save").addEventListener("click", save);
  $("new").addEventListener("click", function () { $("game").hidden = true; window.scrollTo(0, 0); $("start").focus(); });
  $("clear-filter").addEventListener("click", function () { filter = null; renderDecisions(game.state); drawPreviews(game.state); });
  $("record").addEventListener("click", record);
  $("speed").addEventListener("change", function () { if (game) scheduleOpponent(game.state); });
  document.addEventListener("keydown", function (ev) {
    if (!game || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (/^[1-9]$/.test(ev.key)) {
      var buttons = $("decisions").querySelectorAll("button");
      var b = buttons[Number(ev.key) - 1];
      if (b) { ev.preventDefault(); b.click(); }
    } else if (ev.key === "u") { undo(); } else if (ev.key === "n") { stepOpponent(); }
  });

  window.rivenPlay = {
    state: function () { return game && game.state; },
    busy: function () { return busy; },
    lastSave: function () { return lastSave; }
  };
  loadOptions();
})();
