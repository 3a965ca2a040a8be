// The routh viewer: reads the data routh.view wrote into the page (a trajectory, or a sweep
// table) and shows it. window.routhViewer is a small hook for tests and scripts: setTime(t),
// play(), pause(), time, worldToPixel(x, y[, z]) for a trajectory; runToPixel(i), select(i),
// selectedRun, command and player (the selected run's trajectory) for a sweep.
import {Player} from "./player.js";
import {SweepMap} from "./sweep.js";

const STYLE = `
body { font: 14px system-ui, sans-serif; margin: 12px; color: #111; background: #fff; }
#routh-viewer { max-width: 960px; }
.routh-head { margin: 4px 0 8px; }
.routh-title { font-weight: bold; margin-right: 12px; }
.routh-meta { color: #555; }
.routh-stage { position: relative; border: 1px solid #ccc; }
.routh-stage canvas { display: block; }
.routh-labels { position: absolute; left: 0; top: 0; pointer-events: none; }
.routh-label { position: absolute; left: 0; top: 0; white-space: nowrap; font-size: 12px;
  padding: 1px 4px; background: rgba(255, 255, 255, 0.85); border: 1px solid #999;
  border-radius: 3px; color: #111; }
.routh-label.routh-hit { border-color: #d62728; color: #d62728; }
.routh-controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.routh-slider { flex: 1; }
.routh-time { font-family: monospace; min-width: 15ch; }
.routh-time.routh-hit { color: #d62728; }
.routh-strip { display: block; border: 1px solid #ddd; border-top: none; cursor: crosshair; }
.routh-map { border: 1px solid #ccc; cursor: pointer; }
.routh-legend-item { margin-right: 14px; }
.routh-swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px;
  vertical-align: middle; }
.routh-details table { border-collapse: collapse; font-size: 12px; }
.routh-details th { text-align: left; padding-right: 12px; font-weight: normal; color: #555; }
.routh-command { background: #f4f4f4; padding: 8px; white-space: pre-wrap; word-break: break-all; }
.routh-error { color: #b00; font-weight: bold; }
`;

function start() {
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.appendChild(style);
  const root = document.getElementById("routh-viewer");
  const data = JSON.parse(document.getElementById("routh-data").textContent);
  try {
    const view = data.kind === "sweep" ? new SweepMap(root, data) : new Player(root, data);
    window.routhViewer = view.hook();
  } catch (error) {
    const message = document.createElement("p");
    message.className = "routh-error";
    message.textContent = `The viewer could not start (${error.message}). It draws with WebGL: ` +
        "a browser with WebGL turned on is needed.";
    root.appendChild(message);
    window.routhViewer = {kind: "error", error: String(error)};
  }
}

if (document.readyState === "loading")
  document.addEventListener("DOMContentLoaded", start);
else
  start();
