// A sweep table as a map: each run a square at (x, y) = two of its columns, coloured by whether
// it overturned (or by its status). A click selects the nearest run: its row, the routh run
// command that reproduces it, and its trajectory when the page holds it.
import {Player} from "./player.js";
import {format, niceTicks} from "./strips.js";
import {element} from "./dom.js";

const WIDTH = 640;
const HEIGHT = 440;
const PAD = {
  left: 70,
  right: 16,
  top: 16,
  bottom: 46
};
const OUTCOMES = {
  overturned: "#d62728",
  "not overturned": "#1f77b4",
  failed: "#7f7f7f",
};
const STATUS_COLOURS =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const PICK_PIXELS = 14;  // a click selects the nearest run this close

export class SweepMap {
  constructor(container, data) {
    this.data = data;
    this.columns = Object.fromEntries(data.columns.map((c) => [c.name, c]));
    this.count = data.columns[0].values.length;
    const numeric =
        data.columns.filter((c) => c.values.every((v) => v === null || typeof v === "number"))
            .map((c) => c.name);
    const root = element("div", "routh-sweep", container);
    const head = element("div", "routh-head", root);
    element("span", "routh-title", head, data.title);
    element(
        "span", "routh-meta", head,
        `${this.count} runs · swept ${data.swept.join(", ") || "nothing"}`);
    const bar = element("div", "routh-controls", root);
    const swept = data.swept.filter((c) => numeric.includes(c));
    const choose = (label, initial) => {
      element("label", null, bar, label);
      const select = element("select", null, bar);
      for (const name of numeric) {
        const option = element("option", null, select, name);
        option.value = name;
        option.selected = name === initial;
      }
      select.addEventListener("change", () => this.draw());
      return select;
    };
    // y: the second swept key; a sweep of one key shows an outcome against it
    const varies = (name) => new Set(this.columns[name]?.values.filter((v) => v !== null)).size > 1;
    const outcome = ["max_abs_theta", "impacts", "final_time"].find(
        (name) => numeric.includes(name) && varies(name));
    this.xSelect = choose("x", swept[0] ?? numeric[1]);
    this.ySelect = choose("y", swept[1] ?? outcome ?? numeric[2]);
    element("label", null, bar, "colour");
    this.colourSelect = element("select", null, bar);
    for (const name of ["overturned", "status"])
      element("option", null, this.colourSelect, name).value = name;
    this.colourSelect.addEventListener("change", () => this.draw());
    this.canvas = element("canvas", "routh-map", root);
    this.canvas.width = WIDTH;
    this.canvas.height = HEIGHT;
    this.canvas.addEventListener("click", (event) => {
      const box = this.canvas.getBoundingClientRect();
      const run = this.nearest(event.clientX - box.left, event.clientY - box.top);
      if (run !== null) this.select(run);
    });
    this.legend = element("div", "routh-legend", root);
    this.details = element("div", "routh-details", root);
    this.playerBox = element("div", "routh-run-player", root);
    this.selected = null;
    this.player = null;
    this.draw();
  }

  value(name, i) {
    return this.columns[name]?.values[i];
  }

  outcome(i) {
    const status = this.value("status", i);
    if (status === "input_error" || status === "error" || this.value("overturned", i) < 0)
      return "failed";
    return this.value("overturned", i) === 1 ? "overturned" : "not overturned";
  }

  colour(i) {
    if (this.colourSelect.value === "overturned") return OUTCOMES[this.outcome(i)];
    const statuses = [...new Set(this.columns.status.values)];
    return STATUS_COLOURS[statuses.indexOf(this.value("status", i)) % STATUS_COLOURS.length];
  }

  // The pixel of run i on the map, from its two columns (null where either is missing).
  runToPixel(i) {
    const x = this.value(this.xSelect.value, i);
    const y = this.value(this.ySelect.value, i);
    if (x === null || y === null || x === undefined || y === undefined) return null;
    const {x0, x1, y0, y1} = this.range;
    return {
      x: PAD.left + ((x - x0) / (x1 - x0)) * (WIDTH - PAD.left - PAD.right),
      y: HEIGHT - PAD.bottom - ((y - y0) / (y1 - y0)) * (HEIGHT - PAD.top - PAD.bottom),
    };
  }

  nearest(px, py) {
    let best = null;
    let distance = PICK_PIXELS;
    for (let i = 0; i < this.count; i++) {
      const p = this.runToPixel(i);
      if (!p) continue;
      const d = Math.hypot(p.x - px, p.y - py);
      if (d <= distance) [best, distance] = [i, d];
    }
    return best;
  }

  draw() {
    const xs = this.columns[this.xSelect.value].values.filter((v) => v !== null);
    const ys = this.columns[this.ySelect.value].values.filter((v) => v !== null);
    const span = (values) => {
      let [low, high] = [Math.min(...values), Math.max(...values)];
      if (!(high > low)) [low, high] = [low - 1, high + 1];
      const pad = 0.05 * (high - low);
      return [low - pad, high + pad];
    };
    const [x0, x1] = span(xs);
    const [y0, y1] = span(ys);
    this.range = {x0, x1, y0, y1};
    const g = this.canvas.getContext("2d");
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.strokeStyle = "#333";
    g.strokeRect(PAD.left, PAD.top, WIDTH - PAD.left - PAD.right, HEIGHT - PAD.top - PAD.bottom);
    // a square per run, as large as the distinct values leave room for
    const distinct = (values) => new Set(values).size;
    const size = Math.max(
        3,
        Math.min(
            18, (WIDTH - PAD.left - PAD.right) / distinct(xs) - 1,
            (HEIGHT - PAD.top - PAD.bottom) / distinct(ys) - 1));
    for (let i = 0; i < this.count; i++) {
      const p = this.runToPixel(i);
      if (!p) continue;
      g.fillStyle = this.colour(i);
      g.fillRect(p.x - size / 2, p.y - size / 2, size, size);
    }
    if (this.selected !== null) {
      const p = this.runToPixel(this.selected);
      if (p) {
        g.strokeStyle = "#000";
        g.lineWidth = 2.5;
        g.strokeRect(p.x - size / 2 - 3, p.y - size / 2 - 3, size + 6, size + 6);
        g.lineWidth = 1;
      }
    }
    g.fillStyle = "#111";
    g.font = "12px sans-serif";
    const unit = (name) => (this.columns[name].unit ? ` [${this.columns[name].unit}]` : "");
    const xName = this.xSelect.value;
    const yName = this.ySelect.value;
    g.fillText(`${xName}${unit(xName)}`, PAD.left, HEIGHT - 8);
    g.save();
    g.translate(14, HEIGHT - PAD.bottom);
    g.rotate(-Math.PI / 2);
    g.fillText(`${yName}${unit(yName)}`, 0, 0);
    g.restore();
    g.font = "11px sans-serif";
    const plotX = (v) => PAD.left + ((v - x0) / (x1 - x0)) * (WIDTH - PAD.left - PAD.right);
    const plotY = (v) =>
        HEIGHT - PAD.bottom - ((v - y0) / (y1 - y0)) * (HEIGHT - PAD.top - PAD.bottom);
    g.textAlign = "center";
    for (const v of niceTicks(x0, x1, 6)) {
      g.fillRect(plotX(v), HEIGHT - PAD.bottom, 1, 4);
      g.fillText(format(v), plotX(v), HEIGHT - PAD.bottom + 15);
    }
    g.textAlign = "right";
    for (const v of niceTicks(y0, y1, 6)) {
      g.fillRect(PAD.left - 4, plotY(v), 4, 1);
      g.fillText(format(v), PAD.left - 6, plotY(v) + 4);
    }
    g.textAlign = "left";
    this.legend.textContent = "";
    const entries = this.colourSelect.value === "overturned" ? Object.entries(OUTCOMES) : [
      ...new Set(this.columns.status.values)
    ].map((s, k) => [s, STATUS_COLOURS[k % STATUS_COLOURS.length]]);
    for (const [name, colour] of entries) {
      const item = element("span", "routh-legend-item", this.legend);
      element("span", "routh-swatch", item).style.background = colour;
      element("span", null, item, name);
    }
  }

  select(i) {
    this.selected = i;
    this.draw();
    const run = String(this.value("run", i));
    const box = this.details;
    box.textContent = "";
    element("h3", null, box, `run ${run}: ${this.value("status", i)}`);
    const table = element("table", null, box);
    for (const column of this.data.columns) {
      const row = element("tr", null, table);
      element("th", null, row, column.name);
      const v = column.values[i];
      element("td", null, row, `${v === null ? "nan" : v}${column.unit ? ` ${column.unit}` : ""}`);
    }
    element(
        "p", null, box,
        this.data.base_from_here ?
            "Run it again (from the folder the page was made in):" :
            "Run it again (from the sweep file's folder: its `base:` is relative to it):");
    const command = element("pre", "routh-command", box, this.data.commands[i]);
    const copy = element("button", null, box, "copy command");
    copy.addEventListener("click", () => navigator.clipboard?.writeText(command.textContent));
    const file = this.data.files[run];
    if (file) element("p", "routh-file", box, `trajectory: ${file} (routh view ${file})`);
    this.playerBox.textContent = "";
    this.player = null;
    const trajectory = this.data.trajectories[run];
    if (trajectory) {
      this.player = new Player(this.playerBox, trajectory);
      this.player.scene.canvas.scrollIntoView?.({block: "nearest"});
    }
  }

  hook() {
    const map = this;
    return {
      kind: "sweep",
      runToPixel: (i) => {
        const p = map.runToPixel(i);
        const box = map.canvas.getBoundingClientRect();
        return p && {x: p.x + box.left, y: p.y + box.top};  // viewport pixels, as a click takes
      },
      select: (i) => map.select(i),
      setAxes: (x, y) => {
        map.xSelect.value = x;
        map.ySelect.value = y;
        map.draw();
      },
      get selectedRun() {
        return map.selected === null ? null : map.value("run", map.selected);
      },
      get command() {
        return map.selected === null ? null : map.data.commands[map.selected];
      },
      get player() {
        return map.player && map.player.hook();
      },
      get canvas() {
        return map.canvas;
      },
    };
  }
}
