// Dead Drop · Station: a game page kept live over Server-Sent Events.
// The server pushes what changed (a new Floor message, a region of the Floor such as the tally, a
// badge), or the page's live part already rendered for this reader; chat and whisper forms are sent with fetch. Without JavaScript every form still posts and redirects.

const root = document.querySelector(".game-page[data-live-url]");

// The nodes between the <!--live--> and <!--/live--> comments are what a push replaces.
function markers() {
  const comments = [...root.childNodes].filter((node) => node.nodeType === Node.COMMENT_NODE);
  const start = comments.find((node) => node.data === "live");
  const end = comments.find((node) => node.data === "/live");
  return [start, end];
}

function apply(html) {
  const [start, end] = markers();
  if (!start || !end) return;
  // Keep what the reader is typing and where the cursor is: a push must not eat a message.
  const typed = new Map();
  for (const field of root.querySelectorAll("textarea[id], select[id]")) typed.set(field.id, field.value);
  // The same for a claim being made: its number, its ticks, and the box it is open in.
  const inputs = new Map();
  for (const field of root.querySelectorAll("input[id]:not([type=hidden])")) {
    inputs.set(field.id, field.type === "checkbox" ? field.checked : field.value);
  }
  const opened = [...root.querySelectorAll("details[id]")].filter((box) => box.open).map((box) => box.id);
  const focused = document.activeElement && document.activeElement.id;
  while (start.nextSibling && start.nextSibling !== end) start.nextSibling.remove();
  const template = document.createElement("template");
  template.innerHTML = html;
  end.before(template.content);
  for (const [id, value] of typed) {
    const field = document.getElementById(id);
    if (field && value && field.tagName === "TEXTAREA") field.value = value;
    if (field && field.tagName === "SELECT" && [...field.options].some((o) => o.value === value)) field.value = value;
  }
  for (const [id, value] of inputs) {
    const field = document.getElementById(id);
    if (field && field.tagName === "INPUT") field[field.type === "checkbox" ? "checked" : "value"] = value;
  }
  for (const id of opened) {
    const box = document.getElementById(id);
    if (box && box.tagName === "DETAILS") box.open = true;
  }
  if (focused) document.getElementById(focused)?.focus();
  for (const log of root.querySelectorAll(".chat-log")) log.scrollTop = log.scrollHeight;
  document.dispatchEvent(new CustomEvent("deaddrop:live"));
}

// A push may replace the form while its post is under way (the page's own message often comes
// back before the answer does): find the form as it is on the page now.
function current(form) {
  if (form.isConnected) return form;
  // The claim forms share one action; each has its own id.
  if (form.id) return document.getElementById(form.id) || form;
  const action = form.getAttribute("action");
  return [...root.querySelectorAll("form[data-live-form]")].find((f) => f.getAttribute("action") === action) || form;
}

function notice(form, text) {
  form = current(form);
  let box = form.querySelector(".live-notice");
  if (!box) {
    box = document.createElement("p");
    box.className = "flash flash-error live-notice";
    box.setAttribute("role", "alert");
    form.prepend(box);
  }
  box.textContent = text;
  box.hidden = !text;
}

// Forms on their way, by action: a double tap sends once, and the buttons come back after the
// answer, whatever it was (a refusal writes nothing, so no push would redraw them).
const sending = new Set();

function buttons(form, disabled) {
  for (const button of current(form).querySelectorAll("button[type=submit]")) button.disabled = disabled;
}

async function send(form) {
  const action = form.getAttribute("action");
  if (sending.has(action)) return;
  sending.add(action);
  buttons(form, true);
  try {
    await post(form);
  } finally {
    sending.delete(action);
    buttons(form, false);
  }
}

async function post(form) {
  const fields = Object.fromEntries(new FormData(form));
  const token = fields._csrf_token;
  delete fields._csrf_token;
  const url = new URL(form.action, location.href);
  // What was sent, by field: cleared on success wherever the field is by then.
  const sent = [...form.querySelectorAll("textarea[id]")].map((area) => [area.id, area.value]);
  let response;
  try {
    response = await fetch("/api" + url.pathname, {
      method: "POST",
      body: JSON.stringify(fields),
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
    });
  } catch {
    form.submit(); // the network failed: let the browser post the form itself
    return;
  }
  const answer = await response.json().catch(() => ({}));
  if (answer.ok) {
    const now = current(form);
    if (now === form) form.reset();
    for (const [id, value] of sent) {
      const area = document.getElementById(id);
      // Only what was sent: a draft begun since the post left stays.
      if (area && area.value === value) area.value = "";
    }
    notice(form, "");
  } else {
    notice(form, answer.detail || "That was refused; reload the page.");
  }
}

// The reader's cursor the page shows, from its load or from the last push: how many events this
// reader may see up to there (never a count of anyone else's), so a larger one is newer.
let shown = Number(root?.dataset.liveAfter || 0);

// A new message appended where the page lists them (the same <li> a fresh load renders); the
// panel then drops its oldest one as a fresh load would, and pages back from the new oldest.
function append(data) {
  const { panel, html, older } = JSON.parse(data);
  const log = document.getElementById(panel)?.querySelector(".chat-log");
  if (!log) return false;
  // A page loaded just as the message was posted may list it already.
  const id = (html.match(/id="(msg-\d+)"/) || [])[1];
  if (id && document.getElementById(id)) return true;
  const near = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.insertAdjacentHTML("beforeend", html);
  if (older) {
    log.querySelector("li.chat-message")?.remove();
    const link = log.parentElement.querySelector(".chat-older a");
    if (link) link.href = link.href.replace(/before=\d+/, `before=${older}`);
  }
  if (near) log.scrollTop = log.scrollHeight;
  document.dispatchEvent(new CustomEvent("deaddrop:live"));
  return true;
}

// The comments <!--region:NAME--> and <!--/region:NAME--> around a part of the page every reader
// sees alike (the Floor's tally, its votes, who whispered to whom).
function regionMarkers(name) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  let start = null;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.data === `region:${name}`) start = node;
    else if (start && node.data === `/region:${name}`) return [start, node];
  }
  return [null, null];
}

// A region replaced whole, its markers included (the push carries them, as a fresh load does).
function region(data) {
  const { name, html } = JSON.parse(data);
  const [start, end] = regionMarkers(name);
  if (!start || !end || start.parentNode !== end.parentNode) return false;
  const template = document.createElement("template");
  template.innerHTML = html;
  const range = document.createRange();
  range.setStartBefore(start);
  range.setEndAfter(end);
  range.deleteContents();
  range.insertNode(template.content);
  document.dispatchEvent(new CustomEvent("deaddrop:live"));
  return true;
}

// A tab's "new" badge grows by what arrived for that tab (this reader's own count, as the server
// counted it for them): written the way the page renders it.
function badge(data) {
  const { tab, add } = JSON.parse(data);
  const link = root.querySelector(`.tab-bar a[href$="/${tab}"]`);
  if (!link || link.getAttribute("aria-current") === "page") return;
  const old = link.querySelector(".tab-badge");
  const was = old ? old.textContent.match(/\d+\+?/)?.[0] || "0" : "0";
  const count = was.endsWith("+") ? 100 : Number(was) + add;
  const text = count > 99 ? "99+" : String(count);
  link.textContent = link.firstChild.textContent.trimEnd(); // the label, without the old badge
  link.insertAdjacentHTML(
    "beforeend",
    ` <span class="tab-badge"><span class="visually-hidden">(</span>${text}<span class="visually-hidden"> new)</span></span>`,
  );
}

function listen() {
  const url = new URL(root.dataset.liveUrl, location.href);
  url.searchParams.set("after", String(shown));
  // The browser reconnects by itself and sends Last-Event-ID: the server replays the rest.
  const source = new EventSource(url);
  const moved = (event) => {
    shown = Math.max(shown, Number(event.lastEventId) || 0);
  };
  source.addEventListener("page", (event) => {
    moved(event);
    apply(event.data);
  });
  source.addEventListener("append", (event) => {
    moved(event);
    if (!append(event.data)) refresh(); // the page is not what the push expects: load it
  });
  source.addEventListener("region", (event) => {
    moved(event);
    if (!region(event.data)) refresh(); // the page is not what the push expects: load it
  });
  source.addEventListener("badge", (event) => {
    moved(event);
    badge(event.data);
  });
  source.addEventListener("cursor", moved);
  // A busy server answers 503 and the browser gives the stream up for good: open a new one a
  // little later (spread out, so a crowd turned away does not come back all at once), from
  // the last event shown. A 4xx (the game is gone, the seat or the link no longer this
  // reader's) stays so: stop asking.
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) setTimeout(retry, 5000 + Math.random() * 5000);
  });
}

async function retry() {
  const url = new URL(root.dataset.liveUrl, location.href);
  url.searchParams.set("after", String(shown));
  const asking = new AbortController();
  try {
    const response = await fetch(url, { headers: { Accept: "text/event-stream" }, signal: asking.signal });
    asking.abort(); // only its status was wanted: the stream is opened anew below
    // 429 is "later", not "never": only the other 4xx end the retries.
    if (response.status >= 400 && response.status < 500 && response.status !== 429) return;
  } catch {
    // offline, or aborted: try again as before
  }
  listen();
}

// Back to a page left in another tab: what was looked at elsewhere meanwhile (its badges)
// reaches this page only by a fresh look, which also counts as this tab's look.
async function refresh() {
  let html;
  try {
    const response = await fetch(location.href, { headers: { Accept: "text/html" }, cache: "no-store" });
    if (!response.ok) return;
    html = await response.text();
  } catch {
    return; // offline: the stream catches up when the network is back
  }
  const start = html.indexOf("<!--live-->");
  const end = html.indexOf("<!--/live-->", start);
  const after = Number((html.match(/data-live-after="(\d+)"/) || [])[1] || 0);
  // A push that came while this was on its way may be newer than the page fetched.
  if (start < 0 || end < 0 || after < shown) return;
  shown = after;
  apply(html.slice(start + "<!--live-->".length, end));
}

if (root) {
  root.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-live-form")) return;
    event.preventDefault();
    send(form);
  });
  listen();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}
