// The browser verifier's worker: loads Pyodide and the project's pure packages from this site,
// then runs adjudicator.record.verdict (the same verify_bytes as `pbem verify`) on a record.
// Messages in: {runtime, zip, raw (Uint8Array), receipt} or {runtime, zip, step}.
// Out: status, loaded, progress, result, step, error.
"use strict";
let booting = null;
let lastRaw = null;  // the record checked last: the step-by-step replay reads it

async function boot(runtime, zipUrl) {
  importScripts(runtime + "pyodide.js");
  const started = performance.now();
  const py = await loadPyodide({ indexURL: runtime, fullStdLib: false });
  const zip = await (await fetch(zipUrl)).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/pbem" });
  py.runPython("import sys; sys.path.insert(0, '/pbem')\n"
    + "from adjudicator.record.verdict import check_export, find_receipt\n"
    + "def check_js(raw, progress):\n    return check_export(raw.to_bytes(), progress)\n"
    + "def receipt_js(raw, line):\n    return find_receipt(raw.to_bytes(), line)\n"
    + "from adjudicator.record.verdict import step_view\n"
    + "def step_js(raw, index):\n    return step_view(raw.to_bytes(), index)\n");
  postMessage({ type: "loaded", ms: performance.now() - started });
  return py;
}

function plain(value) {
  return value.toJs({ dict_converter: Object.fromEntries });
}

onmessage = async (event) => {
  const msg = event.data;
  try {
    if (!booting) {
      postMessage({ type: "status", key: "loading" });
      booting = boot(msg.runtime, msg.zip);
    }
    const py = await booting;
    if (msg.step !== undefined) {
      postMessage({ type: "step", step: plain(py.globals.get("step_js")(lastRaw, msg.step)) });
      return;
    }
    lastRaw = msg.raw;
    postMessage({ type: "status", key: "checking" });
    const started = performance.now();
    const check = py.globals.get("check_js");
    const result = plain(check(msg.raw, (done, total) => postMessage({ type: "progress", done, total })));
    const ms = performance.now() - started;
    let receipt = null;
    if (msg.receipt) {
      receipt = plain(py.globals.get("receipt_js")(msg.raw, msg.receipt));
    }
    postMessage({ type: "result", result, receipt, ms });
  } catch (err) {
    postMessage({ type: "error", text: String(err && err.message ? err.message : err) });
  }
};
