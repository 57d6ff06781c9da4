// Small enhancements; every page works without them. With scripts, a step of the order composer
// submits itself when a part is picked (one interaction fewer); without, its "Next" button does.
document.documentElement.classList.add("script");
document.addEventListener("change", function (event) {
  var select = event.target;
  if (select.matches && select.matches("select[data-autosubmit]") && select.value) {
    select.form.submit();
  }
});

// A time zone field left at its default takes the browser's zone (the server shows times in it).
document.addEventListener("DOMContentLoaded", function () {
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  document.querySelectorAll("input[data-browser-timezone]").forEach(function (input) {
    if (zone && (input.value === "" || input.value === "UTC")) { input.value = zone; }
  });
});

// A board click while a plan of several orders is on the page fills its next empty row instead of
// reloading the page (which would lose the rows already picked); without scripts the link does it.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.pick") : null;
  var form = document.querySelector(".plan-form");
  if (!link || !form) { return; }
  var href = link.getAttribute("href") || link.getAttribute("xlink:href") || "";
  var targets = new URL(href, document.baseURI).searchParams.getAll("plan");
  var target = targets[targets.length - 1];
  if (!target) { return; }
  var rows = Array.prototype.slice.call(form.querySelectorAll("select[name=target]"));
  var taken = rows.some(function (row) { return row.value === target; });
  var empty = rows.filter(function (row) { return !row.value; })[0];
  if (!taken && !empty) { return; }
  event.preventDefault();
  if (!taken) { empty.value = target; }
  (taken ? rows.filter(function (row) { return row.value === target; })[0] : empty).focus();
});

// A click on a board piece that names one order of the list (a China house space) picks that
// order in the list without a reload; the send button then sends it. Without scripts the link
// reloads the page with the list narrowed to that order.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a[data-choose]") : null;
  var select = document.querySelector(".order-form select[name=order]");
  if (!link || !select) { return; }
  var word = link.getAttribute("data-choose").toLowerCase();
  var option = Array.prototype.filter.call(select.options, function (o) {
    return o.textContent.toLowerCase().split(/\s+/).indexOf(word) >= 0;
  })[0];
  if (!option) { return; }
  event.preventDefault();
  select.value = option.value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
  document.querySelectorAll("a[data-choose].chosen").forEach(function (a) { a.classList.remove("chosen"); });
  link.classList.add("chosen");
  var send = select.form.querySelector("button[type=submit]");
  if (send) { send.focus(); }
});

// Doge's placement: a click on an area of the drawn Venice presses that area's button of the
// placement form (the ticked markers go there); without scripts the link marks the area's button.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.area-pick[data-area]") : null;
  var form = document.querySelector(".placement-form");
  if (!link || !form) { return; }
  var button = form.querySelector("button[name=area][value='" + link.getAttribute("data-area") + "']");
  if (!button) { return; }
  event.preventDefault();
  button.click();
});

// Doge's placement: the list of whole marker sets and the tick boxes show one choice. Picking a
// set ticks its markers (and only those); a tick shows the set the ticked markers make in the list,
// or its first line when they make none. Without scripts the server reads whichever was used
// (web/doge_placement.py) and asks when the two differ.
document.addEventListener("change", function (event) {
  var target = event.target;
  var form = target.closest ? target.closest(".placement-form") : null;
  if (!form) { return; }
  var list = form.querySelector("select[data-marker-set]");
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=marker]:not([disabled])"));
  if (!list) { return; }
  if (target === list) {
    var wanted = list.value ? list.value.split(" ") : [];
    boxes.forEach(function (box) {
      var at = wanted.indexOf(box.value);
      box.checked = at >= 0;
      if (at >= 0) { wanted.splice(at, 1); }
    });
  } else if (target.name === "marker") {
    var ticked = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    ticked.sort(function (a, b) { return b - a; });
    var value = ticked.join(" ");
    var known = Array.prototype.some.call(list.options, function (o) { return o.value === value; });
    list.value = known ? value : "";
  }
});

// Live pages: a page that names its version (a seat's page, a game's public page) asks every
// POLL_MS whether it changed (a few bytes; the seat's URL carries its secret, as the page's does),
// and when it did, fetches the page and swaps in its new content. A form the reader is filling in
// is never thrown away: then a note with a reload link appears instead. Without scripts the
// "reload" link on the page does the same by hand.
(function () {
  var POLL_MS = 10000;
  var main = document.getElementById("main");
  if (!main || !main.dataset.versionUrl || !window.fetch) { return; }
  var busy = false;
  var dirty = false;
  main.addEventListener("input", function () { dirty = true; });
  main.addEventListener("change", function (event) {
    if (!(event.target.matches && event.target.matches("select[data-autosubmit]"))) { dirty = true; }
  });

  function note() {
    if (document.getElementById("live-note")) { return; }
    var box = document.createElement("p");
    box.id = "live-note";
    box.className = "notice warn live-note";
    box.setAttribute("role", "status");
    var link = document.createElement("a");
    link.href = window.location.pathname + window.location.search;
    link.textContent = main.dataset.liveReload || "Reload";
    box.appendChild(document.createTextNode((main.dataset.liveMoved || "The game moved on.") + " "));
    box.appendChild(link);
    main.insertBefore(box, main.firstChild);
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("main");
    if (!fresh) { return; }
    var y = window.scrollY;
    main.innerHTML = fresh.innerHTML;
    main.dataset.version = fresh.dataset.version;
    window.scrollTo(0, y);
  }

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    fetch(main.dataset.versionUrl, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || data.version === main.dataset.version) { return null; }
        if (dirty) { main.dataset.version = data.version; note(); return null; }
        return fetch(window.location.pathname + window.location.search, {credentials: "same-origin", cache: "no-store"})
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) { if (html && !dirty) { swap(html); } else if (html) { note(); } });
      })
      .catch(function () { return null; })
      .then(function () { busy = false; });
  }

  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
})();
