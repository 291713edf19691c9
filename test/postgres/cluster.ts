import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A PostgreSQL server for the tests: its URL, and how to stop it (a no-op for RAGCI_TEST_PG). */
export interface TestPostgres {
  readonly url: string;
  readonly stop: () => void;
}

/** The newest Debian PostgreSQL's binaries (/usr/lib/postgresql/N/bin). */
function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const version = versions[0];
  if (version === undefined) {
    throw new Error(
      "these tests need PostgreSQL: set RAGCI_TEST_PG=postgresql://… or install Debian's postgresql (apt-get install postgresql; .ci/run does)",
    );
  }
  return join(root, version, "bin");
}

/** A TCP port free on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * RAGCI_TEST_PG when set (CI starts one), else a throwaway cluster: initdb into a temporary
 * directory (as the postgres user when running as root, since initdb refuses root), listening
 * on 127.0.0.1 only, trust authentication, stopped and removed by `stop`.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env.RAGCI_TEST_PG;
  if (given) return { url: given, stop: () => {} };
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), "ragci-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: readonly string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, program), ...args], {
          stdio: "pipe",
        })
      : execFileSync(join(bin, program), args, { stdio: "pipe" });
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  run("initdb", [
    "-D",
    data,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C.UTF-8",
    "--no-sync",
  ]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    join(dir, "log"),
    "-o",
    `-k ${dir} -h 127.0.0.1 -p ${port} -F -c shared_buffers=16MB`,
    "-w",
    "start",
  ]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
