// The archive's verifier opened from its folder (file://), where Chromium runs no worker and
// fetch() reads no file. `pbem archive` ships each file the check needs (X) as a classic script
// (X.js) that hands its bytes, base64, to pbemFile(); fetch() on this page answers those URLs
// from that table (with the content type Pyodide expects) and leaves every other URL alone.
// The check runs on the page, a chunk of entries at a time between repaints, so the progress bar
// still moves. PbemLocal.worker() speaks the worker's messages (verify-worker.js): verify.js
// drives either the same way.
"use strict";
(function () {
  const files = Object.create(null);  // absolute URL -> base64 of its bytes
  const TYPES = { wasm: "application/wasm", json: "application/json", zip: "application/zip" };
  const SLICE_MS = 40;  // the longest the page goes without a repaint while it checks

  window.pbemFile = function (base64) {
    files[document.currentScript.src.replace(/\.js$/, "")] = base64;
  };

  function decode(base64) {
    const text = atob(base64);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i += 1) { out[i] = text.charCodeAt(i); }
    return out;
  }

  const siteFetch = window.fetch;
  window.fetch = function (input, init) {
    const raw = typeof input === "string" || input instanceof URL ? input : input.url;
    const url = new URL(raw, document.baseURI).href;
    if (!(url in files)) { return siteFetch.call(window, input, init); }
    const kind = TYPES[url.split(".").pop()] || "application/octet-stream";
    return Promise.resolve(new Response(decode(files[url]), { status: 200, headers: { "Content-Type": kind } }));
  };

  function load(url) {
    return new Promise(function (resolve, reject) {
      const script = document.createElement("script");
      script.src = url;
      script.onload = resolve;
      script.onerror = function () { reject(new Error("cannot read " + url)); };
      document.head.appendChild(script);
    });
  }

  function plain(value) {
    const out = value.toJs({ dict_converter: Object.fromEntries });
    value.destroy();
    return out;
  }

  const nextPaint = () => new Promise((resolve) => setTimeout(resolve, 0));

  class LocalWorker {
    constructor(form) {
      this.form = form;
      this.onmessage = null;
      this.booting = null;
      this.lastRaw = null;
      this.queue = Promise.resolve();  // one message at a time, in order, as a worker takes them
    }

    postMessage(msg) {
      this.queue = this.queue.then(() => this.handle(msg));
    }

    emit(data) {
      if (this.onmessage) { this.onmessage({ data: data }); }
    }

    async boot(runtime, zipUrl) {
      const started = performance.now();
      const embedded = (this.form.getAttribute("data-embedded") || "").split(" ").filter(Boolean);
      await Promise.all([runtime + "pyodide.js", runtime + "pyodide.asm.js", zipUrl + ".js",
        ...embedded.map((name) => runtime + name + ".js")].map(load));
      const py = await loadPyodide({ indexURL: runtime, fullStdLib: false });
      const zip = await (await fetch(zipUrl)).arrayBuffer();
      py.unpackArchive(zip, "zip", { extractDir: "/pbem" });
      py.runPython("import sys; sys.path.insert(0, '/pbem')\n"
        + "from adjudicator.record.verdict import check_export_steps, find_receipt, step_view\n"
        + "def check_js(raw):\n    return check_export_steps(raw.to_bytes())\n"
        + "def receipt_js(raw, line):\n    return find_receipt(raw.to_bytes(), line)\n"
        + "def step_js(raw, index):\n    return step_view(raw.to_bytes(), index)\n");
      this.emit({ type: "loaded", ms: performance.now() - started });
      return py;
    }

    async handle(msg) {
      try {
        if (!this.booting) {
          this.emit({ type: "status", key: "loading-local" });
          await nextPaint();
          this.booting = this.boot(msg.runtime, msg.zip);
        }
        const py = await this.booting;
        if (msg.step !== undefined) {
          this.emit({ type: "step", step: plain(py.globals.get("step_js")(this.lastRaw, msg.step)) });
          return;
        }
        this.lastRaw = msg.raw;
        this.emit({ type: "status", key: "checking" });
        const started = performance.now();
        const steps = py.globals.get("check_js")(msg.raw);
        let result;
        let slice = performance.now();
        for (;;) {
          const next = steps.next();
          if (next.done) { result = plain(next.value); break; }
          const [done, total] = plain(next.value);
          this.emit({ type: "progress", done: done, total: total });
          if (performance.now() - slice > SLICE_MS) {
            await nextPaint();
            slice = performance.now();
          }
        }
        steps.destroy();
        const ms = performance.now() - started;
        const receipt = msg.receipt ? plain(py.globals.get("receipt_js")(msg.raw, msg.receipt)) : null;
        this.emit({ type: "result", result: result, receipt: receipt, ms: ms });
      } catch (err) {
        this.emit({ type: "error", text: String(err && err.message ? err.message : err) });
      }
    }
  }

  window.PbemLocal = {
    // the record's own script (data-export + ".js"), loaded before verify.js fetches the record
    prepare: function (form) {
      const record = form.getAttribute("data-export");
      return record ? load(new URL(record, document.baseURI).href + ".js") : Promise.resolve();
    },
    worker: function (form) { return new LocalWorker(form); },
  };
})();
