/**
 * simulate's study run from the command line (src/cli/studyRun.ts): the status line names the
 * study a report comes from and times it from the study's start, not from the reading's; the
 * run carries the version, the threads and Ctrl-C's signal to the library.
 */
import { describe, expect, it, vi } from "vitest";
import type { CommandIo } from "../../src/cli/io.js";
import { studyRun } from "../../src/cli/studyRun.js";

function recordingIo(signal?: AbortSignal): { io: CommandIo; lines: string[] } {
  const lines: string[] = [];
  const io = {
    version: "9.9.9",
    progress: { enabled: true, update: (m: string) => lines.push(m), done() {} },
    ...(signal ? { signal } : {}),
  } as unknown as CommandIo;
  return { io, lines };
}

describe("studyRun", () => {
  it("labels each progress line with its study and the run's fraction, timed from the study's start", () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(0);
      const controller = new AbortController();
      const { io, lines } = recordingIo(controller.signal);
      const run = studyRun(io, 3, (column, done, total) => ({
        label: `K = ${[10, 20][column]}`,
        fraction: (column * total + done) / (2 * total),
      }));
      expect([run.version, run.threads, run.signal]).toEqual(["9.9.9", 3, controller.signal]);
      // The reading took 40 s; the study starts then, and is a quarter done 10 s later.
      vi.setSystemTime(40_000);
      run.onStudyStart?.();
      vi.setSystemTime(50_000);
      run.onProgress?.(0, 50, 100);
      expect(lines.at(-1)).toBe("K = 10: 50% of 100 repetitions · 10 s elapsed, about 30 s left");
      run.onProgress?.(1, 100, 100);
      expect(lines.at(-1)).toBe("K = 20: 100% of 100 repetitions · 10 s elapsed, about 0 s left");
    } finally {
      vi.useRealTimers();
    }
  });

  it("has no signal when the command has none", () => {
    const { io } = recordingIo();
    expect("signal" in studyRun(io, 1, () => ({ label: "", fraction: 0 }))).toBe(false);
  });
});
