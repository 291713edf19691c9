/** A one-line status on stderr, shown only when stderr is a terminal; cleared when done. */
export interface Progress {
  update(message: string): void;
  done(): void;
}

export function progress(stream: NodeJS.WriteStream, enabled: boolean): Progress {
  if (!enabled) return { update() {}, done() {} };
  let shown = false;
  return {
    update(message) {
      stream.write(`\r\u001b[2K${message}`);
      shown = true;
    },
    done() {
      if (shown) stream.write("\r\u001b[2K");
      shown = false;
    },
  };
}
