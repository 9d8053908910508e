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

function tick(deadline, outputs) {
  const left = remaining(deadline - Date.now());
  const text = left ? `${left} left` : "The Pouch is departing: reload for the Morning Cable.";
  for (const output of outputs) output.textContent = text;
  return left !== null;
}

function start() {
  const time = document.querySelector("time[data-countdown]");
  const outputs = document.querySelectorAll("[data-countdown-left]");
  if (!time || outputs.length === 0) return;
  const deadline = Date.parse(time.getAttribute("datetime"));
  if (Number.isNaN(deadline)) return;
  if (!tick(deadline, outputs)) return;
  // Once a second: the seconds show in the last hour, and a tick costs next to nothing.
  const timer = setInterval(() => {
    if (!tick(deadline, outputs)) clearInterval(timer);
  }, 1000);
}

start();
