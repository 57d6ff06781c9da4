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
