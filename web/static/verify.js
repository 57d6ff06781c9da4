// The /verify page: hands a record to the verifier's worker (verify-worker.js) and shows its
// progress, the verdict line (the same as `pbem verify` would give) and a pasted receipt's fate.
// Every message is the page's own (translated) data-msg-* text. An archive opened from its folder
// (file://) has no worker: verify-local.js runs the same check on the page instead.
(function () {
  "use strict";
  var form = document.getElementById("verifier");
  if (!form) { return; }
  var $ = function (id) { return document.getElementById(id); };
  var local = location.protocol === "file:";
  var worker = null;
  var lastRaw = null;

  function msg(key, values) {
    var text = form.getAttribute("data-msg-" + key) || key;
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }
  function say(text) { $("verify-status").textContent = text; }

  function show(data) {
    var result = data.result;
    $("verify-progress").hidden = true;
    $("verdict").textContent = result.line;
    $("verdict").setAttribute("data-ok", result.ok ? "yes" : "no");
    if (!result.ok) { $("verify-summary").textContent = msg("failed"); }
    else if (result.replayed) { $("verify-summary").textContent = msg("full", { version: result.rules_version }); }
    else { $("verify-summary").textContent = msg("partial"); }
    var steps = $("verify-steps");
    steps.hidden = !(result.ok && result.replayed);
    if (!steps.hidden) {
      $("verify-step").max = String(result.entries - 1);
      $("verify-step").value = String(result.entries - 1);
      ask(result.entries - 1);
    }
    $("verify-time").textContent = msg("time", { seconds: (data.ms / 1000).toFixed(1) });
    $("verify-time").setAttribute("data-ms", String(Math.round(data.ms)));
    var receipt = data.receipt;
    var out = $("verify-receipt-result");
    out.textContent = "";
    out.removeAttribute("data-kind");
    if (receipt) {
      out.setAttribute("data-kind", receipt.kind);
      if (receipt.kind === "revealed") { out.textContent = msg("revealed", { entry: receipt.entry, order: JSON.stringify(receipt.order) }); }
      else if (receipt.kind === "sealed") { out.textContent = msg("sealed", { entry: receipt.entry }); }
      else if (receipt.kind === "missing") { out.textContent = msg("missing", { seat: receipt.seat, entries: (receipt.seat_entries || []).join(", ") || "—" }); }
      else { out.textContent = msg("unreadable"); }
    }
    say("");
  }

  // data-runtime names pyodide.js; Pyodide wants the folder it is in
  function post(message) {
    message.runtime = new URL(".", new URL(form.getAttribute("data-runtime"), document.baseURI)).href;
    message.zip = new URL(form.getAttribute("data-zip"), document.baseURI).href;
    worker.postMessage(message);
  }

  function ask(step) { post({ step: step }); }

  function showStep(step) {
    if (!step.ok) { $("verify-step-title").textContent = step.line; return; }
    $("verify-step").value = String(step.index);
    $("verify-step-title").textContent = msg("step", { index: step.index, total: step.total - 1, kind: step.kind });
    var orders = Object.keys(step.orders || {}).map(function (seat) { return seat + ": " + step.orders[seat]; });
    $("verify-step-orders").textContent = orders.join("\n");
    $("verify-step-board").textContent = step.board;
  }

  function check(raw) {
    lastRaw = raw;
    $("verdict").textContent = "";
    $("verdict").removeAttribute("data-ok");
    $("verify-summary").textContent = "";
    $("verify-receipt-result").textContent = "";
    $("verify-steps").hidden = true;
    $("verify-progress").value = 0;
    if (!worker) {
      worker = local ? window.PbemLocal.worker(form) : new Worker(form.getAttribute("data-worker"));
      worker.onmessage = function (event) {
        var data = event.data;
        if (data.type === "status") { say(msg(data.key)); }
        else if (data.type === "loaded") { document.documentElement.setAttribute("data-runtime-ms", String(Math.round(data.ms))); }
        else if (data.type === "progress") {
          var bar = $("verify-progress");
          bar.hidden = false; bar.max = data.total; bar.value = data.done;
          say(msg("progress", { done: data.done, total: data.total }));
        } else if (data.type === "result") { show(data); }
        else if (data.type === "step") { showStep(data.step); }
        else if (data.type === "error") { say(msg("error", { error: data.text })); }
      };
    }
    post({ raw: raw, receipt: $("verify-receipt").value.trim() });
  }

  function readFile(file) {
    var reader = new FileReader();
    reader.onload = function () { check(new Uint8Array(reader.result)); };
    reader.readAsArrayBuffer(file);
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var file = $("verify-file").files[0];
    if (file) { readFile(file); }
    else if (lastRaw) { check(lastRaw); }
    else { say(msg("nofile")); }
  });
  $("verify-file").addEventListener("change", function () {
    if (this.files[0]) { readFile(this.files[0]); }
    this.value = "";  // picking the same file again (edited, or after a new receipt) checks it again
  });
  function stepBy(delta) {
    var input = $("verify-step");
    var next = Math.min(Number(input.max), Math.max(0, Number(input.value) + delta));
    ask(next);
  }
  $("verify-step").addEventListener("change", function () { ask(Number(this.value)); });
  $("verify-step-prev").addEventListener("click", function () { stepBy(-1); });
  $("verify-step-next").addEventListener("click", function () { stepBy(1); });
  var drop = $("verify-drop");
  drop.addEventListener("dragover", function (event) { event.preventDefault(); });
  drop.addEventListener("drop", function (event) {
    event.preventDefault();
    if (event.dataTransfer.files[0]) { readFile(event.dataTransfer.files[0]); }
  });

  var exportUrl = form.getAttribute("data-export");
  function fetchRecord() {
    if (!exportUrl) { return; }
    say(msg("fetching"));
    fetch(exportUrl, { credentials: "same-origin" }).then(function (resp) {
      if (!resp.ok) { throw new Error(String(resp.status)); }
      return resp.arrayBuffer();
    }).then(function (buf) { check(new Uint8Array(buf)); })
      .catch(function (err) { say(msg("fetch-failed", { status: err.message })); });
  }
  if (!local) { fetchRecord(); return; }
  // from a folder: verify-local.js first (it answers fetch() for the archive's files), then the record
  var script = document.createElement("script");
  script.src = form.getAttribute("data-local");
  script.onload = function () {
    window.PbemLocal.prepare(form).then(fetchRecord, function (err) { say(msg("error", { error: err.message })); });
  };
  script.onerror = function () { say(msg("error", { error: "cannot read " + script.src })); };
  document.head.appendChild(script);
})();
