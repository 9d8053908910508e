// Dead Drop: small enhancements on top of pages that work without JavaScript.

// A form sent twice (a double tap on a slow phone) would be refused by the server the second
// time with a confusing message; disable its submit button once it is on its way.
// (A live form is sent in the background by station_live.js, which guards it itself: the page
// stays, so a button disabled here would stay disabled after a refusal.)
function guardDoubleSubmit(form) {
  if (form.hasAttribute("data-live-form")) return;
  form.addEventListener("submit", () => {
    for (const button of form.querySelectorAll("button[type=submit]")) {
      if (button.disabled) continue; // the server's own "not now" (e.g. Start with 1 player)
      // Defer so the button's own name/value still goes with this submission.
      setTimeout(() => {
        button.disabled = true;
        button.dataset.sentDisabled = "";
      }, 0);
    }
  });
}

// Offer the device's own time zone next to the picker when it differs from the saved one.
function offerDeviceZone(select) {
  const zone = deviceZone();
  if (!zone || select.value === zone) return;
  const option = [...select.options].find((item) => item.value === zone);
  if (!option) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button-quiet";
  button.textContent = `Use this device's zone (${zone})`;
  button.addEventListener("click", () => {
    select.value = zone;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    select.focus();
  });
  select.insertAdjacentElement("afterend", button);
}

function deviceZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

// A zone nobody chose yet (the account's UTC default) becomes the device's, when offered.
function preferDeviceZone(select) {
  const zone = deviceZone();
  if (!zone || select.value === zone) return;
  if (![...select.options].some((item) => item.value === zone)) return;
  select.value = zone;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

// A hint the server worked out from the form's values as sent (the first Pouch) no longer
// holds once one of the fields it names changes: say so rather than show a stale time.
function markStaleHints(form) {
  for (const hint of form.querySelectorAll("[data-stale-text]")) {
    const fields = (hint.dataset.staleFields || "").split(" ");
    const stale = (event) => {
      if (!fields.includes(event.target.name)) return;
      hint.textContent = hint.dataset.staleText;
      form.removeEventListener("change", stale);
    };
    form.addEventListener("change", stale);
  }
}

// An invite link: share it where the phone can (Web Share), else copy it, and say so. Without
// JavaScript the link stays a selectable text field.
function offerShare(input) {
  const canShare = typeof navigator.share === "function";
  if (!canShare && !navigator.clipboard) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button-quiet share-button";
  button.textContent = canShare ? "Share link" : "Copy link";
  const status = document.createElement("span");
  status.className = "share-status";
  status.setAttribute("role", "status");
  button.addEventListener("click", async () => {
    status.textContent = "";
    if (canShare) {
      try {
        await navigator.share({ title: document.title, url: input.value });
        return;
      } catch (error) {
        if (error.name === "AbortError") return; // the person closed the share sheet
      }
    }
    try {
      await navigator.clipboard.writeText(input.value);
      status.textContent = "Copied";
    } catch {
      input.select();
      status.textContent = "Select the link and copy it";
    }
  });
  input.insertAdjacentElement("afterend", button);
  button.insertAdjacentElement("afterend", status);
}

// Coming back with the browser's Back button restores the page as it was left: re-arm the
// buttons this script disabled on the way out, never those the server sent disabled.
window.addEventListener("pageshow", () => {
  for (const button of document.querySelectorAll("button[data-sent-disabled]")) {
    button.disabled = false;
    delete button.dataset.sentDisabled;
  }
});

for (const form of document.querySelectorAll("form")) {
  guardDoubleSubmit(form);
  markStaleHints(form);
}
for (const select of document.querySelectorAll("[data-zone-from-device] select[data-zone-picker]")) {
  preferDeviceZone(select);
}
for (const select of document.querySelectorAll("select[data-zone-picker]")) offerDeviceZone(select);
for (const input of document.querySelectorAll("input[data-share-link], input.invite-link")) {
  offerShare(input);
}
