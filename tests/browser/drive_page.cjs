// Drives one page of routh.view in headless Chromium for the browser tests (test_viewer.py):
//
//   node drive_page.cjs PLAN.json RESULT.json
//
// PLAN: {"chromium": path, "modules": node_modules folder holding playwright-core, "page": the
// HTML file, "viewport": [w, h], "steps": [...]}; each step one of
//   {"evaluate": "JS expression"}     its value (awaited) in the page
//   {"canvas": "JS expression", "png": path}   writes the pixels of the canvas element the
//                                              expression gives (its WebGL drawing only) to png
//   {"click": "JS expression"}        a mouse click at the viewport point {x, y} it gives
//   {"wait": milliseconds}
//   {"goto": another HTML file}       opens it (the steps after it act on it)
// RESULT: {"values": [one per step], "errors": [the page's uncaught errors and any request it
// made beyond its own file]}.
const fs = require("fs");
const path = require("path");

async function main() {
  const [planFile, resultFile] = process.argv.slice(2);
  const plan = JSON.parse(fs.readFileSync(planFile, "utf8"));
  const { chromium } = require(path.join(plan.modules, "playwright-core"));
  const profile = fs.mkdtempSync(path.join(require("os").tmpdir(), "routh-chromium-"));
  // the flags of a sandboxed CI machine: no GPU (WebGL in software), no network of its own
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: plan.chromium,
    headless: true,
    viewport: { width: plan.viewport[0], height: plan.viewport[1] },
    args: ["--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--disable-quic",
      "--no-first-run", "--disable-background-networking", "--disable-component-update",
      "--disable-sync"],
  });
  const errors = [];
  const values = [];
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.on("pageerror", (error) => errors.push(`${page.url()}: ${error}`));
    // the page is self-contained: anything it asks of the network is an error
    page.on("request", (request) => {
      if (!/^(file|data|blob):/.test(request.url())) errors.push(`request ${request.url()}`);
    });
    const open = async (file) => {
      await page.goto("file://" + path.resolve(file));
      await page.waitForFunction(() => window.routhViewer !== undefined, null, { timeout: 20000 });
    };
    await open(plan.page);
    for (const step of plan.steps) {
      if ("goto" in step) values.push(await open(step.goto));
      else if ("evaluate" in step) values.push(await page.evaluate(step.evaluate));
      else if ("canvas" in step) {
        const url = await page.evaluate(`(${step.canvas}).toDataURL("image/png")`);
        fs.writeFileSync(step.png, Buffer.from(url.split(",")[1], "base64"));
        values.push(step.png);
      } else if ("click" in step) {
        const at = await page.evaluate(step.click);
        await page.mouse.click(at.x, at.y);
        values.push(at);
      } else if ("wait" in step) {
        await page.waitForTimeout(step.wait);
        values.push(null);
      } else throw new Error(`unknown step ${JSON.stringify(step)}`);
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  fs.writeFileSync(resultFile, JSON.stringify({ values, errors }));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
