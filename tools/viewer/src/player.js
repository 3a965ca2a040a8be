// One trajectory on the page: the scene, play / pause, speed, the time slider and the strips.
// The frame shown at time t is the last frame at or before t (after an event's pair of
// samples: the state after it), as routh.animate draws it.
import {Scene} from "./scene.js";
import {Strip} from "./strips.js";
import {element} from "./dom.js";

const SPEEDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4];
const PLAY_SECONDS = 4;  // the default speed plays the run in at least this long, at most 1x
const SLIDER_STEPS = 10000;
const FLASH_SECONDS = 0.05;  // an impact is flashed this long [s of the run] after it, at least

// The index of the last of the sorted `times` at or before t (0 before the first).
function frameAt(times, t) {
  let [low, high] = [0, times.length - 1];
  if (t >= times[high]) return high;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (times[middle] <= t)
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

export class Player {
  constructor(container, data) {
    this.data = data;
    this.times = data.time;
    this.t0 = this.times[0];
    this.t1 = this.times[this.times.length - 1];
    const root = element("div", "routh-player", container);
    const head = element("div", "routh-head", root);
    element("span", "routh-title", head, data.title);
    element(
        "span", "routh-meta", head,
        `${data.dimension === 3 ? "3D" : "planar"} · law ${data.law ?? "?"} · status ${
            data.status ?? "?"} · ${data.samples} samples, ${this.times.length} frames · ${
            data.impacts.length} impacts`);
    const stage = element("div", "routh-stage", root);
    this.scene = new Scene(stage, data);
    const bar = element("div", "routh-controls", root);
    this.button = element("button", "routh-play", bar, "▶ play");
    this.button.addEventListener("click", () => (this.playing ? this.pause() : this.play()));
    // one frame back and forward: an impact's frames one by one
    for (const [text, step] of [["◀", -1], ["▶", 1]]) {
      const button = element("button", "routh-step", bar, text);
      button.title = step < 0 ? "previous frame (←)" : "next frame (→)";
      button.addEventListener("click", () => this.step(step));
    }
    element("label", null, bar, "speed");
    this.speed = element("select", "routh-speed", bar);
    const fits = SPEEDS.filter((s) => s <= 1 && (this.t1 - this.t0) / s >= PLAY_SECONDS);
    const initial = fits.length ? fits[fits.length - 1] : SPEEDS[0];
    for (const s of SPEEDS) {
      const option = element("option", null, this.speed, `${s}×`);
      option.value = String(s);
      option.selected = s === initial;
    }
    this.slider = element("input", "routh-slider", bar);
    Object.assign(this.slider, {type: "range", min: 0, max: SLIDER_STEPS, step: 1, value: 0});
    this.slider.addEventListener("input", () => {
      this.pause();
      this.setTime(this.t0 + (this.slider.value / SLIDER_STEPS) * (this.t1 - this.t0));
    });
    this.readout = element("span", "routh-time", bar);
    const names = element("label", "routh-names", bar);
    const namesBox = element("input", null, names);
    namesBox.type = "checkbox";
    namesBox.checked = true;
    names.append(" names");
    namesBox.addEventListener("change", () => {
      this.scene.labels.style.display = namesBox.checked ? "" : "none";
    });
    if (data.ground) {
      // the ground's motion: drawn (a fixed observer's view), or the ground's frame held still
      const label = element("label", "routh-ground", bar);
      this.groundBox = element("input", null, label);
      this.groundBox.type = "checkbox";
      this.groundBox.checked = true;
      label.append(" ground moves");
      this.groundBox.addEventListener("change", () => {
        this.scene.groundMoves = this.groundBox.checked;
        this.setTime(this.time);
      });
    }
    const strips = element("div", "routh-strips", root);
    const impacts = data.impacts.map((impact) => impact.t);
    this.strips = data.strips.map((strip) => {
      return new Strip(strips, strip, this.times, impacts, (t) => {
        this.pause();
        this.setTime(t);
      });
    });
    this.playing = false;
    this.time = this.t0;
    this.resize();
    window.addEventListener("resize", () => this.resize());
    // space plays or pauses, the arrows step a frame (unless a control has the keyboard)
    root.tabIndex = 0;
    root.addEventListener("keydown", (event) => {
      if (event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
      const step = {ArrowLeft: -1, ArrowRight: 1}[event.key];
      if (step)
        this.step(step);
      else if (event.key === " ")
        this.playing ? this.pause() : this.play();
      else
        return;
      event.preventDefault();
    });
  }

  // Shows the frame `count` frames after (before, if negative) the one shown.
  step(count) {
    this.pause();
    const frame = Math.min(Math.max(this.frame + count, 0), this.times.length - 1);
    this.setTime(this.times[frame]);
  }

  resize() {
    this.scene.resize();
    for (const strip of this.strips) strip.resize(this.scene.width);
    this.setTime(this.time);
  }

  // The contacts of the impacts in (t - window, t]: those to flash at time t.
  hitsAt(t) {
    const span = Math.max(FLASH_SECONDS, 2 * ((this.t1 - this.t0) / this.times.length));
    const hits = new Set();
    for (const impact of this.data.impacts) {
      if (impact.t <= t && impact.t > t - span)
        for (const k of impact.contacts) hits.add(k);
    }
    return hits;
  }

  setTime(t) {
    this.time = Math.min(Math.max(t, this.t0), this.t1);
    this.frame = frameAt(this.times, this.time);
    const hits = this.hitsAt(this.time);
    this.scene.show(this.frame, hits);
    for (const strip of this.strips) strip.show(this.time);
    if (document.activeElement !== this.slider) {
      this.slider.value =
          String(Math.round(((this.time - this.t0) / (this.t1 - this.t0 || 1)) * SLIDER_STEPS));
    }
    this.readout.textContent = `t = ${this.time.toFixed(3)} s${hits.size ? "  · impact" : ""}`;
    this.readout.classList.toggle("routh-hit", hits.size > 0);
  }

  play() {
    if (this.playing) return;
    if (this.time >= this.t1) this.setTime(this.t0);
    this.playing = true;
    this.button.textContent = "❚❚ pause";
    let last = performance.now();
    const step = (now) => {
      if (!this.playing) return;
      this.setTime(this.time + ((now - last) / 1000) * Number(this.speed.value));
      last = now;
      if (this.time >= this.t1)
        this.pause();
      else
        requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  pause() {
    this.playing = false;
    this.button.textContent = "▶ play";
  }

  // The hook tests drive the page with (window.routhViewer, or .player on a sweep's page).
  hook() {
    const player = this;
    return {
      kind: "trajectory",
      setTime: (t) => player.setTime(t),
      play: () => player.play(),
      pause: () => player.pause(),
      get time() {
        return player.time;
      },
      get frame() {
        return player.frame;
      },
      get playing() {
        return player.playing;
      },
      get canvas() {
        return player.scene.canvas;
      },
      worldToPixel: (x, y, z = 0) => player.scene.worldToPixel(x, y, z),
      setGroundMoves: (on) => {
        if (!player.groundBox) return;
        player.groundBox.checked = Boolean(on);
        player.groundBox.dispatchEvent(new Event("change"));
      },
      get ground() {
        return player.data.ground && player.scene.groundShift(player.frame);
      },
      bodies: player.data.bodies.map((b) => ({name: b.name, colour: b.colour})),
    };
  }
}
