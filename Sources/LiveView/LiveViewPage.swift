// SPDX-License-Identifier: MIT
import DrawingStyle

/// The live view's single page: an SVG drawn by inline JavaScript from the
/// `/events` stream, in the visual language of `touchctl render` (same
/// colours, stroke styles, markers, label format and element classes).
package enum LiveViewPage {
    /// The whole page.
    package static var html: String {
        #"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>touchd live view</title>
        <style>
        body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 20px; color: #24292f; background: #fff; }
        h1 { font-size: 15px; margin: 0 0 4px 0; }
        #status { font-size: 11px; color: #57606a; margin-bottom: 8px; }
        #status.disconnected { color: #cf222e; }
        #view { width: 960px; max-width: 100%; height: auto; display: block; }
        #legend { font-size: 10px; color: #57606a; margin-top: 6px; }
        button { font-size: 11px; }
        </style>
        </head>
        <body>
        <h1>touchd live view <button id="clear" type="button">clear</button></h1>
        <div id="status" class="disconnected">connecting…</div>
        <svg id="view" class="touchd-live" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960 540" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
        <g id="screens"></g><g id="tracks"></g><g id="motion"></g><g id="trails"></g><g id="gestures"></g><g id="sessions"></g>
        </svg>
        <div id="legend">● began  ■ ended  ✕ cancelled  ○ stylus in proximity  □ out of proximity  — direct  ··· indirect  — stylus (width = pressure)  - - hover  ◆ gesture  ▭ drag session (items → target: proposal)  ∘ resampled at a 60 Hz frame, → predicted</div>
        <script>
        "use strict";
        const STYLE = \#(RenderStyle.javaScriptConstants);
        const W = 960, GAP = 20, MAX_TRACKS = 60, MAX_GESTURES = 80, MAX_MOTION = 600, LINE = 14;
        const NS = "http://www.w3.org/2000/svg";
        const svg = document.getElementById("view");
        const layers = { screens: document.getElementById("screens"), tracks: document.getElementById("tracks"),
                         trails: document.getElementById("trails"), gestures: document.getElementById("gestures"),
                         sessions: document.getElementById("sessions"), motion: document.getElementById("motion") };
        let screens = [{ id: 0, name: "default", width: 1920, height: 1080 }];
        let scale = 0.5, origins = {}, height = 540;
        const open = new Map(), trails = new Map(), sessions = new Map();
        let placed = [];

        function el(name, attrs, parent, text) {
          const e = document.createElementNS(NS, name);
          for (const k in attrs) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, String(attrs[k]));
          if (text !== undefined) e.textContent = text;
          if (parent) parent.appendChild(e);
          return e;
        }
        function n(v) { return Math.round(v * 10) / 10; }
        function color(id) { return STYLE.touchColors[id % STYLE.touchColors.length]; }
        function stylusWidth(f) {
          if (typeof f !== "number" || !isFinite(f)) return STYLE.pathWidth;
          const c = Math.min(Math.max(f, 0), 1);
          return Math.round((0.75 + c * 7.25) * 4) / 4;
        }
        function layout() {
          const total = screens.reduce((s, x) => s + x.width, 0) || 1;
          const gaps = Math.max(screens.length - 1, 0) * GAP;
          scale = (W - gaps) / total;
          let x = 0; height = 0; origins = {};
          layers.screens.replaceChildren();
          for (const s of screens) {
            origins[s.id] = { x: x, y: 0 };
            el("rect", { class: "screen-outline", "data-screen": s.id, x: n(x), y: 0, width: n(s.width * scale), height: n(s.height * scale),
                         fill: STYLE.screenFill, stroke: "#24292f", "stroke-width": 1.5 }, layers.screens);
            el("text", { class: "screen-label", x: n(x + s.width * scale - 4), y: 12, "text-anchor": "end", "font-size": 11, fill: "#57606a" },
               layers.screens, s.name + " " + s.width + "×" + s.height);
            x += s.width * scale + GAP;
            height = Math.max(height, s.height * scale);
          }
          svg.setAttribute("viewBox", "0 0 " + W + " " + n(Math.max(height, 1)));
        }
        function pt(m) {
          const o = origins[m.screen || 0] || { x: 0, y: 0 };
          const l = m.location || { x: 0, y: 0 };
          return [n(o.x + l.x * scale), n(o.y + l.y * scale)];
        }
        function prune(layer, max) { while (layer.childElementCount > max) layer.firstElementChild.remove(); }
        function clearAll() {
          layers.tracks.replaceChildren(); layers.trails.replaceChildren(); layers.gestures.replaceChildren();
          layers.sessions.replaceChildren(); layers.motion.replaceChildren();
          open.clear(); trails.clear(); sessions.clear(); placed = [];
        }

        function onTouch(m) {
          const [x, y] = pt(m);
          let t = open.get(m.id);
          if (!t) {
            const g = el("g", { class: "touch-path", "data-touch": m.id, "data-type": m.touchType, "data-tool": m.tool, "data-end": "open" }, layers.tracks);
            t = { g: g, seg: null, kind: null, last: null, lastPhase: null };
            open.set(m.id, t);
            if (m.phase === "hover")
              el("circle", { class: "marker proximity-in", cx: x, cy: y, r: 3.5, fill: "#fff", stroke: color(m.id), "stroke-width": 1.25 }, g);
            prune(layers.tracks, MAX_TRACKS);
          }
          const c = color(m.id);
          const hover = m.phase === "hover" || t.lastPhase === "hover";
          const width = m.touchType === "stylus" ? stylusWidth(m.force) : STYLE.pathWidth;
          const kind = hover ? "hover" : "contact:" + width;
          if (t.last) {
            if (kind !== t.kind) {
              const attrs = { class: hover ? "segment hover" : "segment contact", d: "M" + t.last[0] + " " + t.last[1], fill: "none", stroke: c,
                              "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-width": hover ? 1.25 : width };
              if (hover) attrs["stroke-dasharray"] = STYLE.hoverDashes;
              else if (m.touchType === "indirect") attrs["stroke-dasharray"] = STYLE.indirectDashes;
              t.seg = el("path", attrs, t.g, undefined);
              t.g.insertBefore(t.seg, t.g.firstChild);
              t.kind = kind;
            }
            t.seg.setAttribute("d", t.seg.getAttribute("d") + " L" + x + " " + y);
          }
          if (m.phase === "began") {
            el("circle", { class: "marker began", cx: x, cy: y, r: 4.5, fill: c, stroke: "#fff", "stroke-width": 1 }, t.g);
            el("text", { class: "touch-label", x: x - 6, y: y - 7, "text-anchor": "end", "font-size": 9, fill: c }, t.g, "t" + m.id);
          }
          t.last = [x, y]; t.lastPhase = m.phase;
          let end = null;
          if (m.phase === "ended") {
            el("rect", { class: "marker ended", x: x - 3.5, y: y - 3.5, width: 7, height: 7, fill: c, stroke: "#fff", "stroke-width": 1 }, t.g);
            end = "ended";
          } else if (m.phase === "cancelled") {
            const r = 4.5;
            el("path", { class: "marker cancelled", d: "M" + (x - r) + " " + (y - r) + " L" + (x + r) + " " + (y + r) + " M" + (x - r) + " " + (y + r) + " L" + (x + r) + " " + (y - r),
                         stroke: c, "stroke-width": 2.5, "stroke-linecap": "round" }, t.g);
            end = "cancelled";
          } else if (m.phase === "hover" && m.inProximity === false) {
            el("rect", { class: "marker proximity-out", x: x - 3, y: y - 3, width: 6, height: 6, fill: "#fff", stroke: c, "stroke-width": 1.25 }, t.g);
            end = "proximity-out";
          }
          if (end) { t.g.setAttribute("data-end", end); open.delete(m.id); }
        }

        // touchd's position of a touch at a frame (`motion`): a small ring at the
        // resampled position, and a thin arrow to the predicted one when there is one.
        function onMotion(m) {
          const [x, y] = pt(m), c = color(m.id);
          const g = el("g", { class: "motion", "data-touch": m.id, "data-sample": m.sample }, layers.motion);
          el("circle", { class: "resampled", cx: x, cy: y, r: 2, fill: "none", stroke: c, "stroke-width": 0.75 }, g);
          if (m.predicted) {
            const [px, py] = pt({ screen: m.screen, location: m.predicted.location });
            el("path", { class: "predicted", d: "M" + x + " " + y + " L" + px + " " + py, stroke: c, "stroke-width": 0.75,
                         "stroke-dasharray": "2 1.5", fill: "none" }, g);
            el("circle", { class: "predicted", cx: px, cy: py, r: 1.25, fill: c }, g);
          }
          prune(layers.motion, MAX_MOTION);
        }

        function labelText(m) {
          let s = m.recognizer + " " + (STYLE.symbols[m.state] || m.state);
          if (m.direction) s += " " + (STYLE.arrows[m.direction] || m.direction);
          if (m.taps > 1) s += " ×" + m.taps;
          if (m.touches > 1) s += " " + m.touches + " touches";
          if (m.purpose) s += " " + m.purpose;
          return s;
        }
        function place(x, y, text) {
          const w = text.length * 6.6, h = LINE;
          const sides = [];
          if (x + 7 + w <= W) sides.push(x + 7);
          if (x - 7 - w >= 0) sides.push(x - 7 - w);
          if (!sides.length) sides.push(Math.max(0, W - w));
          const live = placed.filter(b => b.node.isConnected);
          placed = live;
          for (let step = 0; step < 60; step++) {
            const off = Math.floor((step + 1) / 2) * (step % 2 === 0 ? 1 : -1) * h;
            const by = y + 4 + off;
            if (by - h + 3 < 0 || by > height) continue;
            for (const bx of sides) {
              if (!live.some(b => bx < b.x + b.w && b.x < bx + w && by - h + 3 < b.y + b.h && b.y < by + 3)) return [bx, by, w];
            }
          }
          return [sides[0], Math.min(Math.max(y + 4, h), height), w];
        }
        function onGesture(m) {
          const [x, y] = pt(m);
          const key = (m.surface || "") + "/" + m.recognizer;
          if (m.state === "began") {
            const p = el("path", { class: "gesture-trail", "data-recognizer": m.recognizer, d: "M" + x + " " + y, fill: "none", stroke: "#24292f",
                                   "stroke-opacity": 0.45, "stroke-width": 1, "stroke-dasharray": "2 2" }, layers.trails);
            trails.set(key, p);
            prune(layers.trails, MAX_GESTURES);
          } else if (trails.has(key)) {
            const p = trails.get(key);
            p.setAttribute("d", p.getAttribute("d") + " L" + x + " " + y);
            if (m.state === "ended" || m.state === "cancelled") trails.delete(key);
          }
          if (m.state === "changed") return;
          const text = labelText(m);
          const g = el("g", { class: "gesture", "data-recognizer": m.recognizer, "data-kind": m.kind, "data-state": m.state, "data-owner": m.owner,
                              "data-surface": m.surface || undefined, "data-system": m.system ? "true" : undefined }, layers.gestures);
          el("title", {}, g, m.owner + " " + (m.surface || "system") + " " + m.recognizer + ": " + m.kind + " " + m.state + " at t = " + m.time);
          const r = 4.5;
          el("path", { class: "gesture-mark", d: "M" + x + " " + (y - r) + " L" + (x + r) + " " + y + " L" + x + " " + (y + r) + " L" + (x - r) + " " + y + "Z",
                       fill: STYLE.gestureText, "fill-opacity": 0.8 }, g);
          const [lx, ly, w] = place(x, y, text);
          if (Math.abs(ly - 4 - y) > LINE)
            el("line", { class: "gesture-leader", x1: x, y1: y, x2: lx > x ? lx : lx + w, y2: ly - 4, stroke: "#8c959f", "stroke-width": 0.75 }, g);
          const label = el("text", { class: "gesture-label", x: n(lx), y: n(ly), "font-size": 11, fill: STYLE.gestureText, stroke: "#fff",
                                     "stroke-width": 3, "paint-order": "stroke", "stroke-linejoin": "round" }, g, text);
          placed.push({ x: lx, y: ly - LINE + 3, w: w, h: LINE, node: label });
          prune(layers.gestures, MAX_GESTURES);
        }
        function onSystem(m) {
          if (m.event !== "edge-hint") return;
          const s = screens.find(x => x.id === (m.screen || 0)) || screens[0];
          const o = origins[s.id] || { x: 0, y: 0 };
          const sw = s.width * scale, sh = s.height * scale;
          const at = { left: [8, sh / 2], right: [sw - 8, sh / 2], top: [sw / 2, 8], bottom: [sw / 2, sh - 8] }[m.edge] || [sw / 2, sh / 2];
          const [lx, ly] = place(o.x + at[0], o.y + at[1], "edge hint " + m.edge);
          const g = el("g", { class: "system-event", "data-event": "edge-hint", "data-edge": m.edge }, layers.gestures);
          el("text", { x: n(lx), y: n(ly), "font-size": 11, fill: "#9a6700", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, g, "edge hint " + m.edge);
        }
        // A drag session (semantics §12) as an observer sees it: its items' count and types, the
        // target under the touch and its proposal; never the data (the daemon does not send it).
        function sessionText(s) {
          let t = "session " + s.id + ": " + s.items + (s.items === 1 ? " item" : " items");
          if (s.types.length) t += " (" + s.types.join(", ") + ")";
          if (s.ended) return t + " ended " + s.ended;
          if (s.target) t += " → " + s.target + ": " + s.proposal;
          return t;
        }
        function onDragSession(m) {
          let s = sessions.get(m.session);
          if (!s) {
            s = { id: m.session, g: el("g", { class: "drag-session", "data-session": m.session, "data-source": m.source }, layers.sessions),
                  items: 0, types: [], target: null, proposal: null, ended: null };
            sessions.set(m.session, s);
            prune(layers.sessions, MAX_GESTURES);
          }
          s.items = m.itemCount || 0; s.types = m.types || [];
          if (m.event === "entered") { s.target = m.surface; s.proposal = "cancel"; }
          else if (m.event === "exited") { s.target = null; s.proposal = null; }
          else if (m.event === "proposal") { s.proposal = m.operation; }
          else if (m.event === "ended") { s.ended = m.outcome + " (" + m.reason + ")"; sessions.delete(m.session); }
          const [x, y] = pt(m);
          const text = sessionText(s);
          s.g.replaceChildren();
          for (const [k, v] of [["data-event", m.event], ["data-items", s.items], ["data-types", s.types.join(" ")],
                                ["data-target", s.target], ["data-proposal", s.proposal], ["data-ended", s.ended]]) {
            if (v === null || v === undefined || v === "") s.g.removeAttribute(k); else s.g.setAttribute(k, String(v));
          }
          el("title", {}, s.g, text + " at t = " + m.time);
          const w = text.length * 6.6 + 8;
          const bx = x + 10 + w <= W ? x + 10 : Math.max(0, x - 10 - w), by = Math.max(y - 22, 0);
          el("rect", { class: "drag-session-badge", x: n(bx), y: n(by), width: n(w), height: 16, rx: 3, fill: "#fff",
                       stroke: s.ended ? "#8c959f" : (s.proposal === "copy" || s.proposal === "move" ? "#1a7f37" : "#9a6700"),
                       "stroke-width": 1.25, "stroke-dasharray": s.ended ? "3 2" : undefined }, s.g);
          el("text", { class: "drag-session-label", x: n(bx + 4), y: n(by + 12), "font-size": 11, fill: STYLE.gestureText }, s.g, text);
        }
        function setStatus(text, connected) {
          const s = document.getElementById("status");
          s.textContent = text;
          s.className = connected ? "connected" : "disconnected";
        }

        function handle(m) {
          switch (m.type) {
            case "hello":
              if (Array.isArray(m.screens) && m.screens.length) screens = m.screens;
              layout(); clearAll();
              setStatus((m.server || "touchd") + ": " + (m.devices || []).map(d => d.name).join(", "), true);
              break;
            case "screens":
              if (Array.isArray(m.screens) && m.screens.length) { screens = m.screens; layout(); }
              break;
            case "touch": onTouch(m); break;
            case "motion": onMotion(m); break;
            case "gesture": onGesture(m); break;
            case "system": onSystem(m); break;
            case "drag-session": onDragSession(m); break;
            case "status": setStatus(m.message, m.connected); break;
          }
        }
        layout();
        document.getElementById("clear").addEventListener("click", clearAll);
        // ?snapshot draws the recent events once and stops (no open connection: headless browsers can finish).
        const snapshot = new URLSearchParams(location.search).has("snapshot");
        const source = new EventSource(snapshot ? "/events?snapshot" : "/events");
        source.onmessage = (e) => { try { handle(JSON.parse(e.data)); } catch (err) { console.error(err); } };
        source.onerror = () => {
          if (snapshot) { source.close(); document.body.setAttribute("data-snapshot", "complete"); return; }
          setStatus("the live view server is not answering; retrying…", false);
        };
        </script>
        </body>
        </html>
        """#
    }
}
