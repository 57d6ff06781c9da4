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
