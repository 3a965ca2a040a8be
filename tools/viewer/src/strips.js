// Time strips under the scene (tilt, energy, ground acceleration): each series against time, in
// its unit, with a cursor at the time shown and a red tick at each impact. A click on a strip
// moves the time there.
const SERIES_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"];
const HEIGHT = 110;
const LEFT = 64;  // room for the value axis [px]
const RIGHT = 12;
const TOP = 18;
const BOTTOM = 20;

// Round values (1, 2 or 5 times a power of ten apart) from low to high, about `count` of them.
export function niceTicks(low, high, count) {
  const span = high - low || 1;
  const step0 = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= step0);
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-12 * span; v += step) ticks.push(v);
  return ticks;
}

// A tick's label: 4 digits at most, exponent form when very large or small.
export function format(v) {
  return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(1) :
                                                                 String(+v.toPrecision(4));
}

export class Strip {
  constructor(container, strip, time, impacts, onPick) {
    this.strip = strip;
    this.time = time;
    this.impacts = impacts;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "routh-strip";
    container.appendChild(this.canvas);
    this.canvas.addEventListener("click", (event) => {
      const box = this.canvas.getBoundingClientRect();
      onPick(this.timeAt(event.clientX - box.left));
    });
  }

  resize(width) {
    this.canvas.width = width;
    this.canvas.height = HEIGHT;
    this.background = null;
  }

  x(t) {
    const [t0, t1] = [this.time[0], this.time[this.time.length - 1]];
    return LEFT + ((t - t0) / (t1 - t0 || 1)) * (this.canvas.width - LEFT - RIGHT);
  }

  timeAt(px) {
    const [t0, t1] = [this.time[0], this.time[this.time.length - 1]];
    return t0 + ((px - LEFT) / (this.canvas.width - LEFT - RIGHT)) * (t1 - t0);
  }

  drawBackground() {
    const c = document.createElement("canvas");
    c.width = this.canvas.width;
    c.height = HEIGHT;
    const g = c.getContext("2d");
    const values = this.strip.series.flatMap((s) => s.values).filter((v) => v !== null);
    let low = Math.min(...values, ...this.strip.levels);
    let high = Math.max(...values, ...this.strip.levels);
    if (!(high > low)) [low, high] = [low - 1, high + 1];
    const pad = 0.08 * (high - low);
    [low, high] = [low - pad, high + pad];
    const y = (v) => TOP + ((high - v) / (high - low)) * (HEIGHT - TOP - BOTTOM);
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, c.width, HEIGHT);
    g.font = "11px sans-serif";
    g.fillStyle = "#333";
    g.strokeStyle = "#e6e6e6";
    g.lineWidth = 1;
    for (const v of niceTicks(low, high, 4)) {
      g.beginPath();
      g.moveTo(LEFT, y(v));
      g.lineTo(c.width - RIGHT, y(v));
      g.stroke();
      g.fillText(format(v), 4, y(v) + 4);
    }
    g.setLineDash([5, 4]);
    g.strokeStyle = "#888";
    for (const v of this.strip.levels) {
      g.beginPath();
      g.moveTo(LEFT, y(v));
      g.lineTo(c.width - RIGHT, y(v));
      g.stroke();
    }
    g.setLineDash([]);
    g.lineWidth = 1.5;
    this.strip.series.forEach((series, k) => {
      g.strokeStyle = series.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
      g.beginPath();
      let pen = false;
      series.values.forEach((v, i) => {
        if (v === null) return void (pen = false);
        if (pen)
          g.lineTo(this.x(this.time[i]), y(v));
        else
          g.moveTo(this.x(this.time[i]), y(v));
        pen = true;
      });
      g.stroke();
    });
    g.fillStyle = "#d62728";
    for (const t of this.impacts) g.fillRect(Math.round(this.x(t)), TOP - 4, 1, 4);
    g.fillStyle = "#111";
    g.font = "bold 11px sans-serif";
    g.fillText(`${this.strip.title} [${this.strip.unit}]`, LEFT, 12);
    let at = LEFT + g.measureText(`${this.strip.title} [${this.strip.unit}]`).width + 16;
    g.font = "11px sans-serif";
    this.strip.series.forEach((series, k) => {
      g.fillStyle = series.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
      g.fillRect(at, 4, 14, 8);
      g.fillStyle = "#333";
      g.fillText(series.name, at + 18, 12);
      at += g.measureText(series.name).width + 34;
    });
    g.fillStyle = "#333";
    for (const t of niceTicks(this.time[0], this.time[this.time.length - 1], 8)) {
      g.fillRect(this.x(t), HEIGHT - BOTTOM, 1, 4);
      g.fillText(format(t), this.x(t) - 8, HEIGHT - 5);
    }
    g.fillText("t [s]", c.width - RIGHT - 26, HEIGHT - BOTTOM - 4);
    this.background = c;
  }

  show(t) {
    if (!this.background) this.drawBackground();
    const g = this.canvas.getContext("2d");
    g.drawImage(this.background, 0, 0);
    g.strokeStyle = "#d62728";
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(this.x(t), TOP - 4);
    g.lineTo(this.x(t), HEIGHT - BOTTOM + 4);
    g.stroke();
  }
}
