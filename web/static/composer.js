// With JavaScript, a step of the order composer submits itself when a part is picked (one
// interaction fewer); without it, the "Next" button does the same.
document.documentElement.classList.add("script");
document.addEventListener("change", function (event) {
  var select = event.target;
  if (select.matches && select.matches("select[data-autosubmit]") && select.value) {
    select.form.submit();
  }
});
