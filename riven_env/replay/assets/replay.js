/* RIVEN Lab replay: folds the embedded event log into one state per event and draws it.
 *
 * State at index i is the state after events[0..i] (index 0 is the deployment of game_start).
 * All states are precomputed at load, so any step can be shown directly, backwards included.
 * Table coordinates are inches with y up; SVG y is height - y.
 *
 * URL query (for automation): ?step=K (or step=last, or a list such as step=last,-3) shows
 * that event on load; &trace=1 records the state after each step; &play=1 starts playing;
 * &measure=1 adds the drawn boxes of labels and anchors, and the base fills, to each state.
 * The current state is always written as JSON into <pre id="state">, and window.rivenReplay
 * offers step(n), goTo(i), play(), pause(), index, count, positions(), state().
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  /* Milliseconds each kind of event stays on screen when playing at 1x speed. */
  var EVENT_DURATION_MS = { game_start: 900, move: 800, shot: 700, melee: 700, activation: 450, removed: 600 };
  var DEFAULT_DURATION_MS = 300;
  /* Event types whose `side` field is the side the event is about, not the side to play. */
  var SIDE_IS_SUBJECT = { score: true, objective: true };
  /* Wound pips and condition badges, in inches. */
  var PLAY_ICON = '<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><polygon points="4,3 4,13 13,8"/></svg>';
  var PAUSE_ICON = '<svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="3" width="3.5" height="10"/><rect x="9.5" y="3" width="3.5" height="10"/></svg>';
  var PIP_RADIUS = 0.11, PIP_SPACING = 0.3, BADGE_WIDTH = 0.62, BADGE_HEIGHT = 0.38;

  function readJson(id) { return JSON.parse(document.getElementById(id).textContent); }

  var config = readJson("riven-config");
  var events = readJson("riven-events");
  var texts = readJson("riven-texts");
  var start = events[0];
  var height = config.height;
  var sides = config.sides;  /* {id: {name, colour}} */
  var sideOrder = config.side_order || Object.keys(sides);
  /* Label layout computed by riven_env/replay/labels.py: a frame per distinct layout. */
  var labels = config.labels;
  /* Whose pool each side's Momentum is (the side, or its hero in solo-hero mode), and the
     pools at the start, so that a side with no Momentum yet still shows 0. */
  var momentumOwner = config.momentum_owner || {};
  var momentumStart = config.momentum_start || {};
  var modelInfo = {};        /* id -> static info from game_start */
  start.models.forEach(function (m) { modelInfo[m.id] = m; });

  /* ---------- folding events into states ---------- */

  function initialState() {
    var models = {};
    start.models.forEach(function (m) {
      models[m.id] = {
        x: m.x, y: m.y, wounds: m.wounds, down: false, stable: false, removed: null,
        conditions: [], strain: 0
      };
    });
    return {
      index: 0, round: 0, side: null, momentum: {}, scores: {}, objectives: {},
      models: models, active: null, result: null
    };
  }

  function copyState(s) {
    var models = {};
    Object.keys(s.models).forEach(function (id) {
      var m = s.models[id];
      models[id] = {
        x: m.x, y: m.y, wounds: m.wounds, down: m.down, stable: m.stable, removed: m.removed,
        conditions: m.conditions.slice(), strain: m.strain
      };
    });
    return {
      index: s.index, round: s.round, side: s.side, momentum: Object.assign({}, s.momentum),
      scores: Object.assign({}, s.scores), objectives: Object.assign({}, s.objectives),
      models: models, active: s.active, result: s.result
    };
  }

  function fold(prev, e, index) {
    var s = copyState(prev);
    s.index = index;
    var m = e.model !== undefined ? s.models[e.model] : undefined;
    if (typeof e.round === "number") s.round = e.round;
    /* `side` is the side whose turn it is, except on events where it names who scored. */
    if (Object.prototype.hasOwnProperty.call(e, "side") && !SIDE_IS_SUBJECT[e.type]) s.side = e.side;
    switch (e.type) {
      case "turn_start": s.active = null; break;
      case "turn_end": s.active = null; s.side = null; break;
      case "activation": case "action": s.active = e.model; break;
      case "move": if (m && e.to) { m.x = e.to[0]; m.y = e.to[1]; } break;
      case "wound": if (m && typeof e.wounds_left === "number") m.wounds = e.wounds_left; break;
      case "down": if (m) { m.down = true; m.stable = false; } break;
      case "stabilise": if (m) m.stable = true; break;
      case "removed": if (m) m.removed = e.reason || "removed"; break;
      case "strain": if (m && typeof e.value === "number") m.strain = e.value; break;
      case "condition":
        if (m) {
          var at = m.conditions.indexOf(e.condition);
          if (e.gained && at < 0) m.conditions.push(e.condition);
          if (!e.gained && at >= 0) m.conditions.splice(at, 1);
        }
        break;
      case "momentum": s.momentum[e.owner] = e.value; break;
      case "score": s.scores[e.side] = e.total; break;
      case "objective": s.objectives[e.objective] = { side: e.side, event: e.event }; break;
      case "game_end": s.result = e; s.active = null; break;
      default: break;
    }
    return s;
  }

  var states = [initialState()];
  for (var i = 1; i < events.length; i++) states.push(fold(states[i - 1], events[i], i));

  /* ---------- drawing ---------- */

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG_NS, name);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }
  function fmt(v) { return String(Math.round(v * 1000) / 1000); }
  function sideColour(side) { return sides[side] ? sides[side].colour : "#777777"; }
  function sideName(side) { return sides[side] ? sides[side].name : String(side); }
  function shortLabel(id) {
    if (labels && labels.text[id] !== undefined) return labels.text[id];
    var tail = String(id).split("-").pop();
    return tail.length <= 3 ? tail : tail.slice(0, 3);
  }

  var layerModels = document.getElementById("models");
  var layerLinks = document.getElementById("links");
  var layerTrails = document.getElementById("trails");
  var views = {};  /* id -> {group, base, ring, marks, pips[], badges, title} */

  start.models.forEach(function (m) {
    var r = m.base / 2;
    var g = el("g", { "class": "model", "data-model": m.id, "data-side": m.side }, layerModels);
    var title = el("title", {}, g);
    var ring = el("circle", { "class": "ring", r: fmt(r + 0.18), cx: 0, cy: 0 }, g);
    var base = el("circle", {
      "class": "base", "data-model": m.id, r: fmt(r), cx: 0, cy: 0,
      style: "fill:" + sideColour(m.side)
    }, g);
    var marks = el("g", { "class": "marks" }, g);
    var label = el("text", { "class": "label", x: 0, y: 0 }, marks);
    if (labels && labels.font[m.id]) label.style.fontSize = labels.font[m.id] + "px";
    label.textContent = shortLabel(m.id);
    var pips = [];
    var count = Math.max(m.wounds, 0);
    for (var k = 0; k < count; k++) {
      pips.push(el("circle", {
        "class": "pip", r: PIP_RADIUS, cy: fmt(r + PIP_RADIUS + 0.06),
        cx: fmt((k - (count - 1) / 2) * PIP_SPACING)
      }, marks));
    }
    var badges = el("g", { "class": "badges" }, marks);
    views[m.id] = { group: g, base: base, ring: ring, marks: marks, pips: pips, badges: badges, title: title, radius: r, label: label };
  });

  function placeModel(id, x, y) {
    var v = views[id];
    var sx = fmt(x), sy = fmt(height - y);
    v.base.setAttribute("cx", sx); v.base.setAttribute("cy", sy);
    v.ring.setAttribute("cx", sx); v.ring.setAttribute("cy", sy);
    v.marks.setAttribute("transform", "translate(" + sx + " " + sy + ")");
    v.group.setAttribute("data-x", fmt(x)); v.group.setAttribute("data-y", fmt(y));
  }

  function drawBadges(v, ms) {
    while (v.badges.firstChild) v.badges.removeChild(v.badges.firstChild);
    /* The same badges, in the same order, as riven_env/replay/labels.py counts. */
    var marks = ms.conditions.map(function (c) { return { text: String(c).slice(0, 3), cls: "badge", full: c }; });
    if (ms.down) marks.push({ text: "dwn", cls: "badge down", full: "Down" });
    if (ms.down && ms.stable) marks.push({ text: "stb", cls: "badge stable", full: "stabilised" });
    var y = -(v.radius + BADGE_HEIGHT / 2 + 0.08);
    marks.forEach(function (b, k) {
      var x = (k - (marks.length - 1) / 2) * (BADGE_WIDTH + 0.05);
      var g = el("g", { "class": b.cls, "data-condition": b.full }, v.badges);
      el("rect", { x: fmt(x - BADGE_WIDTH / 2), y: fmt(y - BADGE_HEIGHT / 2), width: BADGE_WIDTH, height: BADGE_HEIGHT, rx: 0.08 }, g);
      var t = el("text", { x: fmt(x), y: fmt(y) }, g);
      t.textContent = b.text;
    });
  }

  function statusWord(ms) {
    if (ms.removed === "fled") return "Fled";
    if (ms.removed) return "Out";
    if (ms.down) return ms.stable ? "Down (stable)" : "Down";
    return "Ready";
  }

  function frameOf(s) { return labels ? labels.frames[labels.frame_of[s.index]] : null; }

  function drawModels(s) {
    var frame = frameOf(s);
    Object.keys(s.models).forEach(function (id) {
      var ms = s.models[id], v = views[id], info = modelInfo[id];
      if (!v) return;
      placeModel(id, ms.x, ms.y);
      var offset = frame && frame.m[id] ? frame.m[id] : [0, 0];
      v.label.setAttribute("x", fmt(offset[0]));
      v.label.setAttribute("y", fmt(-offset[1]));
      v.label.classList.toggle("outside", offset[0] !== 0 || offset[1] !== 0);
      v.group.classList.toggle("down", ms.down);
      v.group.classList.toggle("stable", ms.down && ms.stable);
      v.group.classList.toggle("removed", !!ms.removed);
      v.group.classList.toggle("active", s.active === id);
      v.group.setAttribute("data-removed", ms.removed ? "true" : "false");
      v.group.setAttribute("data-down", ms.down ? "true" : "false");
      v.pips.forEach(function (p, k) { p.classList.toggle("lost", k >= ms.wounds); });
      drawBadges(v, ms);
      v.title.textContent = id + " (" + (info.name || info.profile) + ", " + sideName(info.side) + "): "
        + ms.wounds + "/" + info.wounds + " wounds, " + statusWord(ms)
        + (ms.conditions.length ? ", " + ms.conditions.join(", ") : "");
    });
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function svgPoint(p) { return fmt(p[0]) + "," + fmt(height - p[1]); }

  /* Lines for the current event: a move's path, a shot or a melee exchange. */
  function drawLinks(s) {
    clear(layerLinks); clear(layerTrails);
    var e = events[s.index];
    if (e.type === "move" && Array.isArray(e.path) && e.path.length > 1) {
      el("polyline", { "class": "trail", points: e.path.map(svgPoint).join(" ") }, layerTrails);
    }
    var pair = e.type === "shot" ? [e.shooter, e.target] : e.type === "melee" ? [e.attacker, e.defender] : null;
    if (pair && s.models[pair[0]] && s.models[pair[1]]) {
      var a = s.models[pair[0]], b = s.models[pair[1]];
      el("line", {
        "class": "link " + e.type, x1: fmt(a.x), y1: fmt(height - a.y), x2: fmt(b.x), y2: fmt(height - b.y)
      }, layerLinks);
    }
  }

  function drawObjectives(s) {
    var frame = frameOf(s);
    document.querySelectorAll(".objective").forEach(function (node, k) {
      var label = node.querySelector(".objective-label");
      if (frame && frame.o[k] && label) {
        label.setAttribute("x", fmt(frame.o[k][0]));
        label.setAttribute("y", fmt(height - frame.o[k][1]));
      }
      var o = s.objectives[node.getAttribute("data-objective")];
      var marker = node.querySelector(".objective-marker");
      node.classList.toggle("looted", !!o && o.event === "looted");
      node.classList.toggle("extracted", !!o && o.event === "extracted");
      marker.style.fill = o && o.side ? sideColour(o.side) : "";
    });
  }

  function chip(side) {
    return '<span class="side-chip" style="background:' + sideColour(side) + '"></span>';
  }
  function escapeHtml(t) {
    return String(t).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" }[c]; });
  }
  function ownerName(owner) { return sides[owner] ? sideName(owner) : String(owner); }

  /* One entry per side, in the log's order, 0 included; then any other owner in the map. */
  function pools(map, owners, startValues) {
    var shown = {};
    var parts = sideOrder.map(function (side) {
      var owner = owners[side] !== undefined ? owners[side] : side;
      shown[owner] = true;
      var value = map[owner] !== undefined ? map[owner] : (startValues[owner] !== undefined ? startValues[owner] : 0);
      var who = owner === side ? sideName(side) : sideName(side) + " (" + owner + ")";
      return chip(side) + escapeHtml(who) + " " + escapeHtml(value);
    });
    Object.keys(map).forEach(function (k) {
      if (!shown[k]) parts.push(escapeHtml(ownerName(k)) + " " + escapeHtml(map[k]));
    });
    return parts.join(", ") || "-";
  }

  function drawPanel(s) {
    var rounds = start.rounds ? " / " + start.rounds : "";
    document.getElementById("st-round").textContent = (s.round || "-") + rounds;
    var side = s.side !== null && s.side !== undefined ? s.side : null;
    document.getElementById("st-side").innerHTML = side !== null
      ? chip(side) + escapeHtml(sideName(side)) : (s.index === 0 ? "deployment; " + escapeHtml(sideName(start.first_side)) + " first" : "-");
    document.getElementById("st-momentum").innerHTML = pools(s.momentum, momentumOwner, momentumStart);
    var scores = Object.assign({}, s.scores);
    if (s.result && s.result.points) scores = Object.assign(scores, s.result.points);
    document.getElementById("st-score").innerHTML = pools(scores, {}, {});
    var result = "-";
    if (s.result) result = s.result.draw || s.result.winner === null ? "draw" : sideName(s.result.winner) + " wins";
    document.getElementById("st-result").textContent = result + (s.result && s.result.reason ? " (" + s.result.reason + ")" : "");
    document.getElementById("current-type").textContent = "#" + s.index + " " + events[s.index].type.replace(/_/g, " ");
    document.getElementById("current-text").textContent = texts[s.index];
    drawRoster(s);
  }

  var rosterBody = document.querySelector("#roster tbody");
  var rosterRows = {};
  start.models.forEach(function (m) {
    var tr = document.createElement("tr");
    tr.innerHTML = "<td>" + chip(m.side) + escapeHtml(m.id) + "</td><td></td><td></td><td></td>";
    tr.title = (m.name || "") + (m.profile ? " (" + m.profile + ")" : "");
    rosterBody.appendChild(tr);
    rosterRows[m.id] = tr;
  });

  function drawRoster(s) {
    Object.keys(rosterRows).forEach(function (id) {
      var ms = s.models[id], tr = rosterRows[id], info = modelInfo[id];
      tr.classList.toggle("removed", !!ms.removed);
      tr.cells[1].textContent = ms.wounds + "/" + info.wounds;
      tr.cells[2].textContent = info.strain_max ? ms.strain + "/" + info.strain_max : String(ms.strain);
      tr.cells[3].textContent = statusWord(ms) + (ms.conditions.length ? ", " + ms.conditions.join(", ") : "");
    });
  }

  /* The event list: every event is an <li>; those after the current one are hidden. */
  var logList = document.getElementById("log");
  var logItems = events.map(function (e, k) {
    var li = document.createElement("li");
    li.className = "future kind-" + e.type;
    li.textContent = texts[k];
    li.setAttribute("data-index", String(k));
    logList.appendChild(li);
    return li;
  });
  logList.addEventListener("click", function (ev) {
    var li = ev.target.closest("li");
    if (li) { pause(); goTo(Number(li.getAttribute("data-index"))); }
  });
  var shownUpTo = -1;
  function drawLog(index) {
    var lo = Math.min(shownUpTo, index), hi = Math.max(shownUpTo, index);
    for (var k = Math.max(lo, 0); k <= hi; k++) {
      logItems[k].classList.toggle("future", k > index);
      logItems[k].classList.toggle("current", k === index);
    }
    shownUpTo = index;
    var item = logItems[index];
    logList.scrollTop = Math.max(0, item.offsetTop - logList.clientHeight + item.offsetHeight + 4);
  }

  var stateOut = document.getElementById("state");
  function positionsOf(s) {
    var out = {};
    Object.keys(s.models).forEach(function (id) {
      var m = s.models[id];
      if (!m.removed) out[id] = [m.x, m.y];
    });
    return out;
  }
  function summary(s) {
    var ids = Object.keys(s.models);
    return {
      index: s.index, count: events.length, type: events[s.index].type, round: s.round, side: s.side,
      positions: positionsOf(s),
      removed: ids.filter(function (id) { return !!s.models[id].removed; }),
      down: ids.filter(function (id) { return s.models[id].down && !s.models[id].removed; }),
      wounds: ids.reduce(function (acc, id) { acc[id] = s.models[id].wounds; return acc; }, {}),
      conditions: ids.reduce(function (acc, id) { acc[id] = s.models[id].conditions.slice(); return acc; }, {}),
      momentum: s.momentum, scores: s.scores, text: texts[s.index],
      panel: {
        momentum: document.getElementById("st-momentum").textContent,
        score: document.getElementById("st-score").textContent
      },
      labels: measure ? labelBoxes() : undefined,
      fills: measure ? baseFills() : undefined
    };
  }

  /* With ?measure=1 the state also holds the drawn box (table inches, y up) of every label
     and of every anchor's parts, as the browser measures them (tests check none overlap),
     and the fill colour each base is drawn with. */
  var measure = new URLSearchParams(window.location.search).get("measure") === "1";
  function baseFills() {
    var out = {};
    Object.keys(views).forEach(function (id) { out[id] = getComputedStyle(views[id].base).fill; });
    return out;
  }
  var board = document.getElementById("board");
  function tableBox(node) {
    var b = node.getBBox(), m = board.getScreenCTM().inverse().multiply(node.getScreenCTM());
    var p = board.createSVGPoint(), xs = [], ys = [];
    [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]].forEach(function (c) {
      p.x = c[0]; p.y = c[1];
      var q = p.matrixTransform(m);
      xs.push(q.x); ys.push(height - q.y);
    });
    return [Math.min.apply(null, xs), Math.min.apply(null, ys), Math.max.apply(null, xs), Math.max.apply(null, ys)];
  }
  function labelBoxes() {
    var out = { labels: {}, anchors: {} };
    Object.keys(views).forEach(function (id) {
      if (views[id].group.classList.contains("removed")) return;
      var v = views[id];
      out.labels["m:" + id] = tableBox(v.label);
      var parts = [tableBox(v.base)];
      if (v.pips.length) v.pips.forEach(function (p) { parts.push(tableBox(p)); });
      Array.prototype.forEach.call(v.badges.querySelectorAll("rect"), function (r) { parts.push(tableBox(r)); });
      out.anchors["m:" + id] = { circle: [Number(v.group.getAttribute("data-x")), Number(v.group.getAttribute("data-y")), v.radius], parts: parts.slice(1) };
    });
    document.querySelectorAll(".objective").forEach(function (node, k) {
      out.labels["o:" + k] = tableBox(node.querySelector(".objective-label"));
      out.anchors["o:" + k] = { circle: null, parts: [tableBox(node.querySelector(".objective-marker"))] };
    });
    return out;
  }

  /* ---------- navigation and playback ---------- */

  var index = 0, playing = false, timer = null, animation = null;
  var slider = document.getElementById("slider");
  var playButton = document.getElementById("btn-play");
  var speedSelect = document.getElementById("speed");
  slider.max = String(events.length - 1);

  function stopAnimation() { if (animation !== null) { cancelAnimationFrame(animation); animation = null; } }

  function render() {
    stopAnimation();
    var s = states[index];
    drawModels(s); drawLinks(s); drawObjectives(s); drawPanel(s); drawLog(index);
    slider.value = String(index);
    document.getElementById("position").textContent = index + " / " + (events.length - 1);
    stateOut.textContent = JSON.stringify(summary(s));
  }

  function goTo(target) {
    var next = Math.max(0, Math.min(events.length - 1, Math.floor(Number(target) || 0)));
    index = next;
    render();
    return index;
  }
  function step(n) { return goTo(index + (n === undefined ? 1 : n)); }

  /* Slide a model along its path; the final position is already drawn by render(). */
  function animateMove(e, duration) {
    var pts = Array.isArray(e.path) && e.path.length > 1 ? e.path : [e.from, e.to];
    if (!pts[0] || !pts[pts.length - 1] || !views[e.model]) return;
    var lengths = [0];
    for (var k = 1; k < pts.length; k++) {
      lengths.push(lengths[k - 1] + Math.hypot(pts[k][0] - pts[k - 1][0], pts[k][1] - pts[k - 1][1]));
    }
    var total = lengths[lengths.length - 1];
    if (total <= 0) return;
    var t0 = null;
    function frame(now) {
      if (t0 === null) t0 = now;
      var f = Math.min(1, (now - t0) / duration), d = f * total, seg = 1;
      while (seg < lengths.length - 1 && lengths[seg] < d) seg++;
      var span = lengths[seg] - lengths[seg - 1], u = span > 0 ? (d - lengths[seg - 1]) / span : 1;
      var a = pts[seg - 1], b = pts[seg];
      placeModel(e.model, a[0] + (b[0] - a[0]) * u, a[1] + (b[1] - a[1]) * u);
      animation = f < 1 ? requestAnimationFrame(frame) : null;
    }
    animation = requestAnimationFrame(frame);
  }

  function durationOf(k) {
    var base = EVENT_DURATION_MS[events[k].type] || DEFAULT_DURATION_MS;
    return base / Number(speedSelect.value || 1);
  }

  function tick() {
    timer = null;
    if (!playing) return;
    if (index >= events.length - 1) { pause(); return; }
    goTo(index + 1);
    var e = events[index];
    if (e.type === "move") animateMove(e, durationOf(index) * 0.8);
    timer = setTimeout(tick, durationOf(index));
  }
  function play() {
    if (playing) return;
    if (index >= events.length - 1) goTo(0);
    playing = true;
    playButton.innerHTML = PAUSE_ICON; playButton.setAttribute("aria-label", "Pause");
    timer = setTimeout(tick, durationOf(index));
  }
  function pause() {
    playing = false;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    playButton.innerHTML = PLAY_ICON; playButton.setAttribute("aria-label", "Play");
  }
  function toggle() { if (playing) pause(); else play(); }

  document.getElementById("btn-first").addEventListener("click", function () { pause(); goTo(0); });
  document.getElementById("btn-back").addEventListener("click", function () { pause(); step(-1); });
  document.getElementById("btn-forward").addEventListener("click", function () { pause(); step(1); });
  document.getElementById("btn-last").addEventListener("click", function () { pause(); goTo(events.length - 1); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", function () { pause(); goTo(slider.value); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "SELECT") return;
    var handled = true;
    switch (ev.key) {
      case " ": case "Spacebar": toggle(); break;
      case "ArrowRight": pause(); step(ev.shiftKey ? 10 : 1); break;
      case "ArrowLeft": pause(); step(ev.shiftKey ? -10 : -1); break;
      case "Home": pause(); goTo(0); break;
      case "End": pause(); goTo(events.length - 1); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  });

  window.rivenReplay = {
    get index() { return index; },
    count: events.length,
    step: step,
    goTo: goTo,
    play: play,
    pause: pause,
    positions: function () { return positionsOf(states[index]); },
    state: function () { return summary(states[index]); }
  };

  /* ?step= takes a comma-separated list applied in order: an index, "last", or a relative
     move "-N" / "+N" (write + as %2B in a URL), e.g. ?step=last,-3 goes to the end, then back 3. */
  /* With &trace=1 the state after each of those steps is kept, as a JSON list in <pre id="trace">. */
  var query = new URLSearchParams(window.location.search);
  var trace = [];
  goTo(0);
  (query.get("step") || "0").split(",").forEach(function (token) {
    var t = token.trim();
    if (t === "last") goTo(events.length - 1);
    else if (t.charAt(0) === "-" || t.charAt(0) === "+") step(Number(t));
    else goTo(t);
    trace.push(summary(states[index]));
  });
  if (query.get("trace") === "1") document.getElementById("trace").textContent = JSON.stringify(trace);
  if (query.get("play") === "1") play();
  document.body.setAttribute("data-ready", "true");
})();
