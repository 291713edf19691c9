import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../postgres/cluster.js";

/** A ClickHouse server for the tests, spoken to over its HTTP interface. */
export interface TestClickHouse {
  /** The statement's output, or (ok false) the server's error text. */
  readonly query: (sql: string) => Promise<{ readonly ok: boolean; readonly text: string }>;
  readonly version: string;
  readonly stop: () => void;
}

const SERVER = "/usr/sbin/clickhouse-server";

/**
 * RAGCI_TEST_CLICKHOUSE (an http://host:8123 URL) when set, else a throwaway server: Debian's
 * clickhouse-server (18.16 in bookworm) with a configuration of its own in a temporary
 * directory, listening on 127.0.0.1 only, the default user without a password; `stop` kills it
 * and removes the directory.
 */
export async function startTestClickHouse(): Promise<TestClickHouse> {
  const given = process.env.RAGCI_TEST_CLICKHOUSE;
  if (given) return connect(given, () => {});
  if (!existsSync(SERVER)) {
    throw new Error(
      "these tests need ClickHouse: set RAGCI_TEST_CLICKHOUSE=http://host:8123 or install Debian's clickhouse-server (apt-get install clickhouse-server; .ci/run does)",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), "ragci-ch-"));
  const [http, tcp] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "config.xml"),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${dir}/server.log</log><errorlog>${dir}/error.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>5368709</mark_cache_size>
</yandex>
`,
  );
  writeFileSync(
    join(dir, "users.xml"),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const server: ChildProcess = spawn(SERVER, [`--config-file=${join(dir, "config.xml")}`], {
    stdio: "ignore",
  });
  const stop = () => {
    server.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    return await connect(`http://127.0.0.1:${http}`, stop);
  } catch (error) {
    stop();
    throw error;
  }
}

/** Waits (up to 30 s) for the server to answer, then reads its version. */
async function connect(url: string, stop: () => void): Promise<TestClickHouse> {
  const query = async (sql: string) => {
    const response = await fetch(`${url}/?output_format_json_quote_64bit_integers=0`, {
      method: "POST",
      body: sql,
    });
    return { ok: response.ok, text: await response.text() };
  };
  for (let waited = 0; ; waited += 100) {
    try {
      const answer = await query("SELECT version()");
      if (answer.ok) return { query, version: answer.text.trim(), stop };
    } catch {}
    if (waited > 30_000) throw new Error(`ClickHouse at ${url} did not answer within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
