// Dead Drop · Cards: live tables on top of pages that work without JavaScript.
// The server pushes the table (one seat's view, already rendered) over Server-Sent Events;
// moves are the page's own forms, sent with fetch; a refusal is shown beside the table.

const live = document.getElementById("cards-live");

function notice(text) {
  let box = document.getElementById("cards-notice");
  if (!box) {
    box = document.createElement("p");
    box.id = "cards-notice";
    box.className = "flash flash-error";
    box.setAttribute("role", "alert");
    live.before(box);
  }
  box.textContent = text;
  box.hidden = !text;
}

// Swap in a new table only when it differs, so an open select is not reset for nothing.
function apply(html) {
  if (live.dataset.html === html) return;
  live.dataset.html = html;
  live.innerHTML = html;
  const body = live.querySelector(".cards-body");
  if (body) body.classList.add("fresh");
}

async function refresh() {
  const response = await fetch(live.dataset.body, { headers: { Accept: "text/html" } });
  if (response.ok) apply(await response.text());
}

async function send(form, submitter) {
  const data = new FormData(form);
  if (submitter && submitter.name) data.append(submitter.name, submitter.value);
  for (const button of form.querySelectorAll("button")) button.disabled = true;
  let response;
  try {
    response = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(data),
      headers: { Accept: "application/json" },
    });
  } catch {
    form.submit(); // the network failed: let the browser post the form itself
    return;
  }
  const answer = await response.json().catch(() => ({}));
  notice(answer.ok ? "" : answer.detail || "The move was refused; reload the page.");
  await refresh();
}

if (live) {
  live.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    send(form, event.submitter);
  });
  if ("EventSource" in window) listen(live.dataset.events);
}

// After a drop the browser reconnects with Last-Event-ID and the server replays. A busy server
// answers 503 and the browser gives the stream up for good: open a new one a little later
// (spread out, so a crowd turned away does not come back at once).
function listen(url) {
  const source = new EventSource(url);
  source.addEventListener("table", (event) => apply(event.data));
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => listen(url), 5000 + Math.random() * 5000);
    }
  });
}

// The replay viewer: arrow keys step back and forth.
for (const link of document.querySelectorAll("a[data-key]")) {
  document.addEventListener("keydown", (event) => {
    if (event.key === link.dataset.key && !event.target.closest("input, select, textarea")) {
      window.location.href = link.href;
    }
  });
}
