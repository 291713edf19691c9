import { execFileSync } from "node:child_process";

/**
 * Runs a Python snippet with numpy imported as `np` and returns the JSON it prints. Throws
 * (so the calling test fails, never skips) when python3 or numpy is unavailable.
 */
export function runNumpy<T>(body: string): T {
  const script = `import json\nimport numpy as np\n${body}\n`;
  let stdout: string;
  try {
    stdout = execFileSync(process.env.RAGCI_PYTHON ?? "python3", ["-c", script], {
      encoding: "utf8",
      maxBuffer: 512 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    const e = error as { message?: string; stderr?: string };
    throw new Error(
      `these tests compare against numpy and need \`python3\` with numpy importable; running it failed: ${e.stderr?.trim() || e.message}`,
    );
  }
  return JSON.parse(stdout) as T;
}

/** 16 hex digits of the uint64 whose halves are hi and lo. */
export function hex64(hi: number, lo: number): string {
  return hi.toString(16).padStart(8, "0") + lo.toString(16).padStart(8, "0");
}
