/** A one-line status on stderr, shown only when stderr is a terminal; cleared when done. */
export interface Progress {
  /** Whether the status line is drawn at all (a terminal): work done only for it can be skipped when not. */
  readonly enabled: boolean;
  update(message: string): void;
  done(): void;
}

/** At most one redraw per this many milliseconds, so short runs do not flicker. */
const REDRAW_MS = 100;

export function progress(stream: NodeJS.WriteStream, enabled: boolean): Progress {
  if (!enabled) return { enabled: false, update() {}, done() {} };
  let shown = false;
  let last = 0;
  return {
    enabled: true,
    update(message) {
      const now = Date.now();
      if (shown && now - last < REDRAW_MS) return;
      stream.write(`\r\u001b[2K${message}`);
      shown = true;
      last = now;
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
      shown = false;
    },
  };
}

/**
 * A study's progress line: its repetitions done, the time elapsed and, from the fraction of the
 * whole run done, the time left.
 */
export function repetitionsProgress(
  done: number,
  total: number,
  fraction: number,
  started: number,
): string {
  const elapsed = (Date.now() - started) / 1000;
  const eta = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : 0;
  return `${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`;
}
