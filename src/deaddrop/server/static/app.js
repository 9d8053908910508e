// Dead Drop: small enhancements on top of pages that work without JavaScript.

// A form sent twice (a double tap on a slow phone) would be refused by the server the second
// time with a confusing message; disable its submit button once it is on its way.
// (A live form is sent in the background by station_live.js, which guards it itself: the page
// stays, so a button disabled here would stay disabled after a refusal.)
function guardDoubleSubmit(form) {
  if (form.hasAttribute("data-live-form")) return;
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) {
      // Defer so the button's own name/value still goes with this submission.
      setTimeout(() => {
        button.disabled = true;
      }, 0);
    }
  });
}

// Offer the device's own time zone next to the picker when it differs from the saved one.
function offerDeviceZone(select) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!zone || select.value === zone) return;
  const option = [...select.options].find((item) => item.value === zone);
  if (!option) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button-quiet";
  button.textContent = `Use this device's zone (${zone})`;
  button.addEventListener("click", () => {
    select.value = zone;
    select.focus();
  });
  select.insertAdjacentElement("afterend", button);
}

// Coming back with the browser's Back button restores the page as it was left: re-arm it.
window.addEventListener("pageshow", () => {
  for (const button of document.querySelectorAll("button[type=submit][disabled]")) {
    button.disabled = false;
  }
});

for (const form of document.querySelectorAll("form")) guardDoubleSubmit(form);
for (const select of document.querySelectorAll("select[data-zone-picker]")) offerDeviceZone(select);
