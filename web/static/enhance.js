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
