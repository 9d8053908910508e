// Dead Drop: a live countdown to the Pouch. The page already states the deadline as text in
// the reader's time zone; this only adds "3 h 12 min left" beside it and keeps it current.

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// "2 d 4 h", "3 h 12 min", "4 min 05 s": coarse when far away, to the second near the end.
export function remaining(ms) {
  if (ms <= 0) return null;
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  const seconds = Math.floor((ms % MINUTE) / 1000);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
}

// On a live page the Morning Cable is pushed as soon as the Pouch has left; elsewhere, reload.
const DEPARTING = document.querySelector("[data-live-url]")
  ? "The Pouch is departing: the Morning Cable follows in a moment."
  : "The Pouch is departing: reload for the Morning Cable.";

function tick(deadline, outputs) {
  const left = remaining(deadline - Date.now());
  const text = left ? `${left} left` : DEPARTING;
  for (const output of outputs) output.textContent = text;
  return left !== null;
}

let timer = null;

// (Re)start from the deadline the page states now: a push may have moved it (an extension),
// stopped it (a pause) or replaced it (the next day).
function start() {
  clearInterval(timer);
  timer = null;
  const time = document.querySelector("time[data-countdown]");
  const outputs = document.querySelectorAll("[data-countdown-left]");
  if (!time || outputs.length === 0) return;
  const deadline = Date.parse(time.getAttribute("datetime"));
  if (Number.isNaN(deadline)) return;
  if (!tick(deadline, outputs)) return;
  // Once a second: the seconds show in the last hour, and a tick costs next to nothing.
  timer = setInterval(() => {
    if (!tick(deadline, outputs)) clearInterval(timer);
  }, 1000);
}

start();
// station_live.js announces every push it applied.
document.addEventListener("deaddrop:live", start);
